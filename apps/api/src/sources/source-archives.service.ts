import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Catalog, guardedWrite } from '@trove/catalog';
import {
  blobKeys,
  type BlobStore,
  FolderFormat,
  type FolderSource,
  type FolderSourceConfig,
  isSourceOfType,
  normalizeSourceName,
  type Source,
  SourceStatus,
  SourceType,
  SyncMode,
  type SyncRun,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { checkFolderArchive } from '@trove/parsing';
import { BLOBS } from '../core/tokens';
import { SyncRunsService } from './sync-runs.service';

/** An uploaded archive, already streamed to a staging blob. */
export interface StagedArchive {
  fileName: string;
  blobKey: string;
  sha256: string;
}

export interface ArchiveOptions {
  sourceId?: string;
  name?: string;
  format?: FolderFormat;
  siteUrl?: string;
}

/** Uploaded `.zip` folders as folder sources. */
@Injectable()
export class SourceArchivesService {
  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(SyncRunsService) private readonly runs: SyncRunsService,
  ) {}

  /**
   * A `.zip` of a folder (a MkDocs project, a folder of files) becomes an archive source, or
   * replaces the archive of an existing one; a sync starts at once. Re-uploading changes only
   * what changed: files are compared by content hash.
   */
  async upload(
    projectId: string,
    file: StagedArchive,
    options: ArchiveOptions,
  ): Promise<{ source: Source; run: SyncRun }> {
    try {
      return await this.store(projectId, file, options);
    } finally {
      await this.blobs.deletePrefix(file.blobKey); // gone already unless refused
    }
  }

  private async store(
    projectId: string,
    file: StagedArchive,
    options: ArchiveOptions,
  ): Promise<{ source: Source; run: SyncRun }> {
    await this.catalog.requireActiveProject(projectId);
    // Checked before anything is stored; the file's name is the default name of a new source.
    const name = options.name ? normalizeSourceName(options.name) : undefined;
    // Range reads of the stored upload (directory and headers): the archive is never in memory.
    await checkFolderArchive(await this.blobs.openReader(file.blobKey), file.fileName);
    checkArchiveFormat(options.format);
    const existing = options.sourceId ? await this.archiveSource(projectId, options.sourceId) : undefined;
    const id = existing?.id ?? randomUUID();
    const archiveBlobKey = blobKeys.sourceArchive(id, file.sha256);
    const folder: FolderSourceConfig = {
      format: options.format ?? existing?.config.format ?? FolderFormat.AUTO,
      archiveBlobKey,
      archiveHash: file.sha256,
      archiveFileName: file.fileName,
      ...(options.siteUrl || existing?.config.siteUrl
        ? { siteUrl: checkUrl(options.siteUrl ?? existing!.config.siteUrl!) }
        : {}),
    };
    const source = await guardedWrite(
      this.catalog,
      { projectId },
      async () => {
        await this.blobs.move(file.blobKey, archiveBlobKey);
        if (existing) {
          await this.catalog.updateSource(id, { config: folder, ...(name ? { name } : {}) });
          return this.catalog.requireSource(id);
        }
        const now = new Date().toISOString();
        return this.catalog.createSource({
          id,
          projectId,
          type: SourceType.FOLDER,
          name: name ?? normalizeSourceName(file.fileName),
          status: SourceStatus.ACTIVE,
          config: folder,
          createdAt: now,
          updatedAt: now,
        });
      },
      async () => {
        // The project's deletion started meanwhile and may have purged this source's files already.
        await this.blobs.deletePrefix(archiveBlobKey);
        if (!existing) await this.catalog.deleteSource(id);
      },
    );
    const run = await this.runs.sync(id, SyncMode.INCREMENTAL);
    return { source, run };
  }

  /** The archive source of this project an upload replaces the archive of. */
  private async archiveSource(projectId: string, sourceId: string): Promise<FolderSource> {
    const found = await this.catalog.requireActiveSource(sourceId);
    // A source of another project is no source of this one: the same answer as a missing one.
    if (found.projectId !== projectId) {
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${found.id} does not exist`);
    }
    if (!isSourceOfType<FolderSource>(found, SourceType.FOLDER) || !found.config.archiveBlobKey) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `source ${found.id} is not an archive source of this project`,
      );
    }
    return found;
  }
}

function checkArchiveFormat(format: FolderFormat | undefined): void {
  if (format && !Object.values(FolderFormat).includes(format)) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `format must be one of ${Object.values(FolderFormat).join(', ')}`,
    );
  }
  if (format === FolderFormat.COMBINED_MARKDOWN) {
    throw new TroveError(TroveErrorCode.BadRequest, 'an archive is a folder: use AUTO, MKDOCS or FILES');
  }
}

function checkUrl(url: string, field = 'siteUrl'): string {
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
