import { z } from 'zod/v4';
import {
  configProblem,
  FolderFormat,
  isTroveError,
  type SourceConfig,
  type SourceDefinition,
  SourceType,
} from '@trove/domain';
import { resolveAllowedPath } from '@trove/storage';

const configSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A folder on the server (a MkDocs project, or any folder of files), or one Markdown file; inside TROVE_FOLDER_ROOTS. Required unless the source is an uploaded archive.',
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
    type: SourceType.FOLDER,
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
            SourceType.FOLDER,
            'path',
            'an archive source has no path: upload a new archive',
          );
        }
        if (format === FolderFormat.COMBINED_MARKDOWN) {
          throw configProblem(
            SourceType.FOLDER,
            'format',
            'an archive is a folder: use AUTO, MKDOCS or FILES',
          );
        }
        return { format, ...(siteUrl ? { siteUrl } : {}) };
      }
      if (path === undefined) {
        throw configProblem(SourceType.FOLDER, 'path', 'required: a folder or Markdown file on the server');
      }
      let resolved: string;
      try {
        resolved = await resolveAllowedPath(path, settings.roots);
      } catch (error) {
        if (isTroveError(error)) throw configProblem(SourceType.FOLDER, 'path', error.message);
        throw error;
      }
      return { format, path: resolved, ...(siteUrl ? { siteUrl } : {}) };
    },
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
