import { Inject, Injectable } from '@nestjs/common';
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client as TemporalClient,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { Catalog, encodeCursor, type PageRequest, type SourceChanges } from '@trove/catalog';
import { type ApiConfig, maskSecret, SecretBox } from '@trove/config';
import type { SecretSealer, Source, SourceConfig, SourceDefinitions, SyncRun } from '@trove/domain';
import {
  blobKeys,
  FolderFormat,
  newSyncRun,
  normalizeSourceName,
  removeSourceWorkflowId,
  sourceWithConfig,
  syncScheduleId,
  syncWorkflowId,
  SourceStatus,
  SourceType,
  isSourceOfType,
  type FolderSource,
  SyncMode,
  SyncRunStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { toConnection } from '../core/connection.model';
import { scheduledStart, startWorkflow } from '../core/workflows';
import { BLOBS, CONFIG, SOURCE_DEFINITIONS, TEMPORAL } from '../core/tokens';
import { checkFolderArchive } from '@trove/parsing';
import type { BlobStore } from '@trove/domain';
import type {
  AddFolderSourceInput,
  AddNotionSourceInput,
  AddSourceInput,
  AddWebSourceInput,
  UpdateSourceInput,
} from './source.model';

/** An uploaded archive, already streamed to a staging blob. */
interface StagedArchive {
  fileName: string;
  blobKey: string;
  sha256: string;
}

interface ArchiveOptions {
  sourceId?: string;
  name?: string;
  format?: FolderFormat;
  siteUrl?: string;
}

@Injectable()
export class SourcesService {
  private readonly secrets?: SecretBox;

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(TEMPORAL) private readonly temporal: TemporalClient,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
  ) {
    if (config.secrets.key) this.secrets = new SecretBox(config.secrets.key);
  }

  /**
   * A source of any type: its configuration is validated by the type's definition (errors name
   * the field) and stored with its secrets sealed.
   */
  async add(input: AddSourceInput): Promise<Source> {
    // An unknown type is refused first: BAD_REQUEST naming the registered types.
    const { type } = this.definitions.get(input.type);
    await this.catalog.requireActiveProject(input.projectId);
    const name = normalizeSourceName(input.name);
    const config = await this.definitions.configure(type, withoutNulls(input.config), this.seal);
    const now = new Date().toISOString();
    return this.createSource(
      sourceWithConfig(
        {
          id: randomUUID(),
          projectId: input.projectId,
          type,
          name,
          status: SourceStatus.ACTIVE,
          createdAt: now,
          updatedAt: now,
        },
        config,
      ),
    );
  }

  /** `addSource` for Notion, with the inputs of the older mutation. */
  addNotion(input: AddNotionSourceInput): Promise<Source> {
    return this.add({
      projectId: input.projectId,
      type: SourceType.NOTION,
      name: input.name,
      config: { token: input.token, rootPageIds: input.roots, rootDatabaseIds: input.databaseRoots },
    });
  }

  /** `addSource` for a server-side folder, with the inputs of the older mutation. */
  addFolder(input: AddFolderSourceInput): Promise<Source> {
    return this.add({
      projectId: input.projectId,
      type: SourceType.FOLDER,
      name: input.name,
      config: { path: input.path, format: input.format, siteUrl: input.siteUrl },
    });
  }

  /** `addSource` for a web site, with the inputs of the older mutation. */
  addWeb(input: AddWebSourceInput): Promise<Source> {
    return this.add({
      projectId: input.projectId,
      type: SourceType.WEB,
      name: input.name,
      config: { url: input.url, maxPages: input.maxPages },
    });
  }

  /**
   * A `.zip` of a folder (a MkDocs project, a folder of files) becomes an archive source, or
   * replaces the archive of an existing one; a sync starts at once. Re-uploading changes only
   * what changed: files are compared by content hash.
   */
  async uploadArchive(
    projectId: string,
    file: StagedArchive,
    options: ArchiveOptions,
  ): Promise<{ source: Source; run: SyncRun }> {
    try {
      return await this.storeArchive(projectId, file, options);
    } finally {
      await this.blobs.deletePrefix(file.blobKey); // gone already unless refused
    }
  }

  private async storeArchive(
    projectId: string,
    file: StagedArchive,
    options: ArchiveOptions,
  ): Promise<{ source: Source; run: SyncRun }> {
    await this.catalog.requireActiveProject(projectId);
    // Checked before anything is stored; the file's name is the default name of a new source.
    const name = options.name ? normalizeSourceName(options.name) : undefined;
    // Range reads of the stored upload (directory and headers): the archive is never in memory.
    await checkFolderArchive(await this.blobs.openReader(file.blobKey), file.fileName);
    if (options.format && !Object.values(FolderFormat).includes(options.format)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `format must be one of ${Object.values(FolderFormat).join(', ')}`,
      );
    }
    if (options.format === FolderFormat.COMBINED_MARKDOWN) {
      throw new TroveError(TroveErrorCode.BadRequest, 'an archive is a folder: use AUTO, MKDOCS or FILES');
    }
    const archiveHash = file.sha256;
    const found = options.sourceId ? await this.catalog.requireActiveSource(options.sourceId) : undefined;
    const existing = found && isSourceOfType<FolderSource>(found, SourceType.FOLDER) ? found : undefined;
    // A source of another project is no source of this one: the same answer as a missing one.
    if (found && found.projectId !== projectId) {
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${found.id} does not exist`);
    }
    if (found && !existing?.config.archiveBlobKey) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `source ${found.id} is not an archive source of this project`,
      );
    }
    const id = existing?.id ?? randomUUID();
    const archiveBlobKey = blobKeys.sourceArchive(id, archiveHash);
    await this.blobs.move(file.blobKey, archiveBlobKey);
    const folder = {
      format: options.format ?? existing?.config.format ?? FolderFormat.AUTO,
      archiveBlobKey,
      archiveHash,
      archiveFileName: file.fileName,
      ...(options.siteUrl || existing?.config.siteUrl
        ? { siteUrl: checkUrl(options.siteUrl ?? existing!.config.siteUrl!) }
        : {}),
    };
    let source: Source;
    if (existing) {
      await this.catalog.updateSource(id, {
        config: folder,
        ...(name ? { name } : {}),
      });
      source = await this.catalog.requireSource(id);
    } else {
      const now = new Date().toISOString();
      source = await this.catalog.createSource({
        id,
        projectId,
        type: SourceType.FOLDER,
        name: name ?? normalizeSourceName(file.fileName),
        status: SourceStatus.ACTIVE,
        config: folder,
        createdAt: now,
        updatedAt: now,
      });
    }
    try {
      await this.catalog.requireActiveProject(projectId);
    } catch (error) {
      // The project's deletion started meanwhile and may have purged this source's files already.
      await this.blobs.deletePrefix(archiveBlobKey);
      if (!existing) await this.catalog.deleteSource(id);
      throw error;
    }
    const run = await this.sync(id, SyncMode.INCREMENTAL);
    return { source, run };
  }

  list(projectId: string): Promise<Source[]> {
    return this.catalog.listSources(projectId);
  }

  /**
   * Renames a source or changes its configuration: `config` changes the fields it gives (secrets
   * left out stay as they are), validated by the type's definition. A new secret (a token after
   * the old one was revoked) makes a NEEDS_TOKEN source ACTIVE again.
   */
  async update(id: string, input: UpdateSourceInput): Promise<Source> {
    const source = await this.catalog.requireActiveSource(id);
    const definition = this.definitions.get(source.type);
    const changes: SourceChanges = {};
    if (input.name !== undefined && input.name !== null) changes.name = normalizeSourceName(input.name);
    const patch: SourceConfig =
      input.config === undefined || input.config === null ? {} : { ...input.config };
    if (input.config !== undefined && input.config !== null && !isObject(input.config)) {
      throw new TroveError(TroveErrorCode.BadRequest, 'config must be a JSON object');
    }
    if (input.token?.trim()) {
      if (!definition.secretFields.includes('token')) {
        throw new TroveError(TroveErrorCode.BadRequest, `${source.type} sources have no token`);
      }
      patch['token'] = input.token;
    }
    if (Object.keys(patch).length > 0) {
      changes.config = await this.definitions.configure(source.type, patch, this.seal, source.config);
      if (definition.secretFields.some((field) => typeof patch[field] === 'string')) {
        changes.status = SourceStatus.ACTIVE;
      }
    }
    await this.catalog.updateSource(id, changes);
    return this.catalog.requireSource(id);
  }

  /**
   * Removes the source with everything it produced (documents, chunks, originals, archives,
   * unpacked caches, schedule, webhook workflow) through its remove workflow; returns when done.
   */
  async remove(id: string): Promise<boolean> {
    const source = await this.catalog.requireSource(id);
    await this.catalog.requireActiveProject(source.projectId);
    await this.catalog.markSourceRemoving(id);
    try {
      const handle = await startWorkflow(this.temporal, 'removeSource', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: removeSourceWorkflowId(id),
        args: [id],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      await handle.result();
    } catch (error) {
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        'the source could not be removed yet (it is marked as being removed); call removeSource again',
        { cause: error },
      );
    }
    return true;
  }

  /** Starts a sync run; one run per source at a time. */
  async sync(id: string, mode: SyncMode): Promise<SyncRun> {
    const source = await this.catalog.requireActiveSource(id);
    if (source.status === SourceStatus.NEEDS_TOKEN) {
      throw new TroveError(
        TroveErrorCode.SourceUnauthorized,
        "the source rejected this source's token; set a new one with updateSource",
      );
    }
    const run = newSyncRun(source, mode);
    await this.catalog.createRun(run);
    try {
      await this.startSyncWorkflow(id, run.id);
    } catch (error) {
      await this.catalog.updateRun(run.id, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        // The client's answer below says why; Temporal's own message is not shown to clients.
        error: {
          code: TroveErrorCode.NotStarted,
          message:
            error instanceof WorkflowExecutionAlreadyStartedError
              ? 'a sync of this source is already running'
              : 'the workflow service (Temporal) is unavailable',
        },
      });
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        throw new TroveError(TroveErrorCode.BadRequest, 'a sync of this source is already running');
      }
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        'the workflow service (Temporal) is unavailable',
        {
          cause: error,
        },
      );
    }
    try {
      await this.catalog.requireActiveSource(id);
    } catch (error) {
      // Raced the deletion of the source or project: stop the run (its activities refuse anyway).
      await this.temporal.workflow
        .getHandle(syncWorkflowId(id))
        .cancel()
        .catch(() => undefined);
      throw error;
    }
    return run;
  }

  /** Sets (minutes > 0) or removes (0) the periodic INCREMENTAL sync of a source. */
  async setSchedule(sourceId: string, minutes: number): Promise<Source> {
    await this.catalog.requireActiveSource(sourceId);
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 7 * 24 * 60) {
      throw new TroveError(TroveErrorCode.BadRequest, 'the interval must be 0 (off) to 10080 minutes');
    }
    const handle = this.temporal.schedule.getHandle(syncScheduleId(sourceId));
    try {
      await handle.delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
    if (minutes > 0) {
      await this.temporal.schedule.create({
        scheduleId: syncScheduleId(sourceId),
        spec: { intervals: [{ every: `${minutes}m` }] },
        action: scheduledStart('scheduledSync', {
          args: [sourceId],
          taskQueue: this.config.temporal.taskQueue,
        }),
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
      try {
        await this.catalog.requireActiveSource(sourceId);
      } catch (error) {
        // Raced a deletion that may have removed schedules already: take this one back out.
        await handle.delete().catch(() => undefined);
        throw error;
      }
    }
    await this.catalog.updateSource(sourceId, { syncIntervalMinutes: minutes || null });
    return this.catalog.requireSource(sourceId);
  }

  /** Starts the scheduled sync now (what the schedule does at each interval). */
  async triggerSchedule(sourceId: string): Promise<boolean> {
    await this.catalog.requireActiveSource(sourceId);
    await this.temporal.schedule.getHandle(syncScheduleId(sourceId)).trigger();
    return true;
  }

  async webhookVerificationToken(sourceId: string): Promise<string | null> {
    const source = await this.catalog.requireSource(sourceId);
    return source.webhookToken && this.secrets ? this.secrets.decrypt(source.webhookToken) : null;
  }

  async resetWebhook(sourceId: string): Promise<boolean> {
    await this.catalog.requireActiveSource(sourceId);
    await this.catalog.updateSource(sourceId, {
      webhookToken: null,
      webhookVerificationOpenedAt: new Date().toISOString(),
    });
    return true;
  }

  /** A page of the source's runs; an unknown source is SOURCE_NOT_FOUND, not an empty page. */
  async runs(sourceId: string, page: PageRequest) {
    await this.catalog.requireSource(sourceId);
    const result = await this.catalog.pageRuns(sourceId, page);
    return toConnection(result, (r) => encodeCursor(new Date(r.startedAt), r.id));
  }

  run(id: string): Promise<SyncRun | undefined> {
    return this.catalog.getRun(id);
  }

  /**
   * One sync workflow per source. A previous run that has recorded its end may still be closing
   * its workflow for a moment: wait for that (briefly) instead of refusing the new run.
   */
  private async startSyncWorkflow(sourceId: string, runId: string): Promise<void> {
    const start = () =>
      startWorkflow(this.temporal, 'syncSource', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: syncWorkflowId(sourceId),
        args: [{ runId }],
        workflowIdConflictPolicy: 'FAIL',
      });
    try {
      await start();
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const running = (await this.catalog.runs.running(sourceId)).some((r) => r.id !== runId);
      if (running) throw error;
      const previous = this.temporal.workflow.getHandle(syncWorkflowId(sourceId));
      await Promise.race([
        previous.result().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 10_000)),
      ]);
      await start();
    }
  }

  /** Creates a source record, unless the project's deletion started meanwhile. */
  private async createSource(source: Source): Promise<Source> {
    await this.catalog.createSource(source);
    try {
      await this.catalog.requireActiveProject(source.projectId);
    } catch (error) {
      await this.catalog.deleteSource(source.id);
      throw error;
    }
    return source;
  }

  /** Seals a secret of a source's configuration; refused when no key is configured. */
  private readonly seal: SecretSealer = (plain) => {
    if (!this.secrets) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'set TROVE_SECRET_KEY (32 random bytes, base64) on the api and worker to store integration tokens',
      );
    }
    return { sealed: this.secrets.encrypt(plain), hint: maskSecret(plain) };
  };
}

/** GraphQL gives unset optional inputs as null: left out, as in JSON. */
function withoutNulls(config: unknown): unknown {
  if (!isObject(config)) return config;
  return Object.fromEntries(
    Object.entries(config).filter(([, value]) => value !== null && value !== undefined),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
