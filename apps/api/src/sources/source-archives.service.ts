import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { guardedWrite, type ProjectSources, type SourceRecords, type WriteChecks } from '@trove/catalog';
import {
  blobKeys,
  type BlobStore,
  normalizeSourceName,
  type Source,
  type SourceDefinitions,
  SourceStatus,
  SyncMode,
  type SyncRun,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { checkFolderArchive } from '@trove/parsing/formats';
import { PROJECT_SOURCES, SOURCE_RECORDS, WRITE_CHECKS } from '../core/catalog.providers';
import { BLOBS, SOURCE_DEFINITIONS } from '../core/tokens';
import { SyncRunsService } from './sync-runs.service';

/** An uploaded archive, already streamed to a staging blob. */
export interface StagedArchive {
  fileName: string;
  blobKey: string;
  sha256: string;
}

/** The upload's form fields: the source to update, a name, and the archive type's own (e.g. `format`). */
export interface ArchiveOptions {
  sourceId?: string;
  name?: string;
  [field: string]: string | undefined;
}

/** Uploaded `.zip` folders as sources of the type that takes archives (its definition's `archive`). */
@Injectable()
export class SourceArchivesService {
  constructor(
    @Inject(WRITE_CHECKS) private readonly writeChecks: WriteChecks,
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'requireSource' | 'updateSource'>,
    @Inject(PROJECT_SOURCES)
    private readonly projectSources: Pick<ProjectSources, 'createSource' | 'deleteSource'>,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(SyncRunsService) private readonly runs: SyncRunsService,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
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
    await this.writeChecks.requireActiveProject(projectId);
    // Checked before anything is stored; the file's name is the default name of a new source.
    const { sourceId, name: givenName, ...fields } = options;
    const name = givenName ? normalizeSourceName(givenName) : undefined;
    // Range reads of the stored upload (directory and headers): the archive is never in memory.
    await checkFolderArchive(await this.blobs.openReader(file.blobKey), file.fileName);
    const definition = this.definitions.archiveType();
    const existing = sourceId ? await this.archiveSource(projectId, sourceId, definition) : undefined;
    const id = existing?.id ?? randomUUID();
    const archiveBlobKey = blobKeys.sourceArchive(id, file.sha256);
    const config = definition.archive.configure(
      { blobKey: archiveBlobKey, sha256: file.sha256, fileName: file.fileName },
      fields,
      existing?.config as Record<string, unknown> | undefined,
    );
    const source = await guardedWrite(
      this.writeChecks,
      { projectId },
      async () => {
        await this.blobs.move(file.blobKey, archiveBlobKey);
        if (existing) {
          await this.sources.updateSource(id, { config, ...(name ? { name } : {}) });
          return this.sources.requireSource(id);
        }
        const now = new Date().toISOString();
        return this.projectSources.createSource({
          id,
          projectId,
          type: definition.type,
          name: name ?? normalizeSourceName(file.fileName),
          status: SourceStatus.ACTIVE,
          config,
          createdAt: now,
          updatedAt: now,
        });
      },
      async () => {
        // The project's deletion started meanwhile and may have purged this source's files already.
        await this.blobs.deletePrefix(archiveBlobKey);
        if (!existing) await this.projectSources.deleteSource(id);
      },
    );
    const run = await this.runs.sync(id, SyncMode.INCREMENTAL);
    return { source, run };
  }

  /** The archive source of this project an upload replaces the archive of. */
  private async archiveSource(
    projectId: string,
    sourceId: string,
    definition: ReturnType<SourceDefinitions['archiveType']>,
  ): Promise<Source> {
    const found = await this.writeChecks.requireActiveSource(sourceId);
    // A source of another project is no source of this one: the same answer as a missing one.
    if (found.projectId !== projectId) {
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${found.id} does not exist`);
    }
    if (
      found.type !== definition.type ||
      !definition.archive.isArchive(found.config as Record<string, unknown>)
    ) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `source ${found.id} is not an archive source of this project`,
      );
    }
    return found;
  }
}
