import { z } from 'zod/v4';
import {
  configProblem,
  isTroveError,
  type SourceArchive,
  type SourceConfig,
  type SourceDefinition,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { resolveAllowedPath } from '@trove/storage';
import { FOLDER_SOURCE_TYPE, FolderFormat, type FolderSourceConfig } from './folder-source';

const configSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A folder on this server (a MkDocs project, or any folder of files), or one Markdown file, inside the folders this server may read (setting TROVE_FOLDER_ROOTS). Required unless the source is an uploaded archive.',
    ),
  format: z.enum(FolderFormat).default(FolderFormat.AUTO).describe('How the folder is read'),
  siteUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional()
    .describe("Public base URL for citations; defaults to mkdocs.yml's site_url"),
});

export interface FolderDefinitionSettings {
  /** Server-side folders that sources may read. */
  roots: string[];
}

/**
 * A folder on the server. Archive sources (an uploaded `.zip`) are created by the upload route,
 * which alone sets their archive fields; a client may change their format and site URL.
 */
export function folderSourceDefinition(settings: FolderDefinitionSettings): SourceDefinition {
  return {
    type: FOLDER_SOURCE_TYPE,
    label: 'Folder',
    description:
      'A folder on the server: a MkDocs project, a folder of files, or one combined Markdown file.',
    configSchema,
    secretFields: [],
    serverFields: ['archiveBlobKey', 'archiveHash'],
    async prepare(config: SourceConfig, previous?: SourceConfig): Promise<SourceConfig> {
      const { path, format, siteUrl } = config as z.output<typeof configSchema>;
      const archive = typeof previous?.['archiveBlobKey'] === 'string';
      if (archive) {
        if (path !== undefined) {
          throw configProblem(
            FOLDER_SOURCE_TYPE,
            'path',
            'an archive source has no path: upload a new archive',
          );
        }
        if (format === FolderFormat.COMBINED_MARKDOWN) {
          throw configProblem(
            FOLDER_SOURCE_TYPE,
            'format',
            'an archive is a folder: use AUTO, MKDOCS or FILES',
          );
        }
        return { format, ...(siteUrl ? { siteUrl } : {}) };
      }
      if (path === undefined) {
        throw configProblem(FOLDER_SOURCE_TYPE, 'path', 'required: a folder or Markdown file on the server');
      }
      let resolved: string;
      try {
        resolved = await resolveAllowedPath(path, settings.roots);
      } catch (error) {
        if (isTroveError(error)) throw configProblem(FOLDER_SOURCE_TYPE, 'path', error.message);
        throw error;
      }
      return { format, path: resolved, ...(siteUrl ? { siteUrl } : {}) };
    },
    archive: folderArchive,
    summarize(config: SourceConfig): string {
      const { format, path, archiveFileName, siteUrl } = config as {
        format?: string;
        path?: string;
        archiveFileName?: string;
        siteUrl?: string;
      };
      const where = path ?? archiveFileName ?? 'uploaded archive';
      return `${format ?? FolderFormat.AUTO} folder ${where}${siteUrl ? ` (${siteUrl})` : ''}`;
    },
  };
}

/**
 * A `.zip` of a folder (a MkDocs project, a folder of files) as a folder source: the upload's
 * `format` and `siteUrl` fields, or those of the source whose archive it replaces.
 */
const folderArchive: SourceArchive = {
  configure(archive, options, previous): SourceConfig {
    const format = options['format'] as FolderFormat | undefined;
    if (format && !Object.values(FolderFormat).includes(format)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `format must be one of ${Object.values(FolderFormat).join(', ')}`,
      );
    }
    if (format === FolderFormat.COMBINED_MARKDOWN) {
      throw new TroveError(TroveErrorCode.BadRequest, 'an archive is a folder: use AUTO, MKDOCS or FILES');
    }
    const before = previous as Partial<FolderSourceConfig> | undefined;
    const siteUrl = options['siteUrl'] || before?.siteUrl;
    const config: FolderSourceConfig = {
      format: format ?? before?.format ?? FolderFormat.AUTO,
      archiveBlobKey: archive.blobKey,
      archiveHash: archive.sha256,
      archiveFileName: archive.fileName,
      ...(siteUrl ? { siteUrl: httpUrl(siteUrl, 'siteUrl') } : {}),
    };
    return { ...config };
  },
  isArchive: (stored) => typeof stored['archiveBlobKey'] === 'string',
};

function httpUrl(url: string, field: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.toString();
  } catch {
    // reported below
  }
  throw new TroveError(
    TroveErrorCode.BadRequest,
    `${field} must be an http(s) URL, got ${JSON.stringify(url.slice(0, 200))}`,
  );
}
