import { Inject, Injectable } from '@nestjs/common';
import {
  type Client as TemporalClient,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { Catalog } from '@trove/catalog';
import { type ApiConfig, maskSecret, SecretBox } from '@trove/config';
import type { Source, SyncRun } from '@trove/domain';
import {
  notionWebhookWorkflowId,
  SourceStatus,
  SourceType,
  SyncMode,
  SyncRunStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { normalizeNotionId } from '@trove/notion';
import { CONFIG, TEMPORAL } from '../core/tokens';
import { DocumentsService } from '../documents/documents.service';
import type { AddNotionSourceInput, UpdateSourceInput } from './source.model';

export const SYNC_SOURCE_WORKFLOW = 'syncSource';
export const syncWorkflowId = (sourceId: string) => `sync-source-${sourceId}`;

@Injectable()
export class SourcesService {
  private readonly secrets?: SecretBox;

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(TEMPORAL) private readonly temporal: TemporalClient,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Inject(DocumentsService) private readonly documents: DocumentsService,
  ) {
    if (config.secrets.key) this.secrets = new SecretBox(config.secrets.key);
  }

  async addNotion(input: AddNotionSourceInput): Promise<Source> {
    await this.catalog.requireProject(input.projectId);
    const name = input.name.trim();
    if (!name) throw new TroveError(TroveErrorCode.BadRequest, 'a source needs a name');
    const token = input.token.trim();
    if (token.length < 20)
      throw new TroveError(TroveErrorCode.BadRequest, 'the Notion token looks too short');
    const databases = new Set(input.databaseRoots.map(normalizeNotionId));
    const roots = input.roots.map(normalizeNotionId);
    const now = new Date().toISOString();
    return this.catalog.createSource({
      id: randomUUID(),
      projectId: input.projectId,
      type: SourceType.NOTION,
      name,
      status: SourceStatus.ACTIVE,
      notion: {
        everything: roots.length === 0 && databases.size === 0,
        rootPageIds: roots.filter((id) => !databases.has(id)),
        rootDatabaseIds: [...databases],
      },
      encryptedToken: this.seal(token),
      tokenHint: maskSecret(token),
      createdAt: now,
      updatedAt: now,
    });
  }

  list(projectId: string): Promise<Source[]> {
    return this.catalog.listSources(projectId);
  }

  async update(id: string, input: UpdateSourceInput): Promise<Source> {
    await this.catalog.requireSource(id);
    const changes: Partial<Source> = {};
    if (input.name?.trim()) changes.name = input.name.trim();
    if (input.token?.trim()) {
      changes.encryptedToken = this.seal(input.token.trim());
      changes.tokenHint = maskSecret(input.token.trim());
      changes.status = SourceStatus.ACTIVE;
    }
    await this.catalog.updateSource(id, changes);
    return this.catalog.requireSource(id);
  }

  /** Removes the source with every document and chunk it produced. */
  async remove(id: string): Promise<boolean> {
    await this.catalog.requireSource(id);
    for (const workflowId of [syncWorkflowId(id), notionWebhookWorkflowId(id)]) {
      try {
        await this.temporal.workflow.getHandle(workflowId).terminate('source removed');
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    }
    for (const document of await this.catalog.listSourceDocuments(id))
      await this.documents.delete(document.id);
    await this.catalog.deleteSource(id);
    return true;
  }

  /** Starts a sync run; one run per source at a time. */
  async sync(id: string, mode: SyncMode): Promise<SyncRun> {
    const source = await this.catalog.requireSource(id);
    if (source.status === SourceStatus.NEEDS_TOKEN) {
      throw new TroveError(
        TroveErrorCode.NotionUnauthorized,
        "Notion rejected this source's token; set a new one with updateSource",
      );
    }
    const run: SyncRun = {
      id: randomUUID(),
      sourceId: id,
      projectId: source.projectId,
      mode,
      status: SyncRunStatus.RUNNING,
      startedAt: new Date().toISOString(),
      progress: {
        pagesSeen: 0,
        pagesIngested: 0,
        pagesUnchanged: 0,
        pagesFailed: 0,
        pagesDeleted: 0,
        pagesSkipped: 0,
        apiCalls: 0,
        chunksEmbedded: 0,
        chunksReused: 0,
      },
      skipped: [],
    };
    await this.catalog.createRun(run);
    try {
      await this.startSyncWorkflow(id, run.id);
    } catch (error) {
      await this.catalog.updateRun(run.id, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        error: { code: 'NOT_STARTED', message: (error as Error).message },
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
    return run;
  }

  async webhookVerificationToken(sourceId: string): Promise<string | null> {
    const source = await this.catalog.requireSource(sourceId);
    return source.webhookToken && this.secrets ? this.secrets.decrypt(source.webhookToken) : null;
  }

  async resetWebhook(sourceId: string): Promise<boolean> {
    await this.catalog.requireSource(sourceId);
    await this.catalog.updateSource(sourceId, { webhookToken: null });
    return true;
  }

  runs(sourceId: string): Promise<SyncRun[]> {
    return this.catalog.listRuns(sourceId);
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
      this.temporal.workflow.start(SYNC_SOURCE_WORKFLOW, {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: syncWorkflowId(sourceId),
        args: [{ runId }],
        workflowIdConflictPolicy: 'FAIL',
      });
    try {
      await start();
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const running = (await this.catalog.listRuns(sourceId)).some(
        (r) => r.id !== runId && r.status === SyncRunStatus.RUNNING,
      );
      if (running) throw error;
      const previous = this.temporal.workflow.getHandle(syncWorkflowId(sourceId));
      await Promise.race([
        previous.result().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 10_000)),
      ]);
      await start();
    }
  }

  private seal(token: string): string {
    if (!this.secrets) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'set TROVE_SECRET_KEY (32 random bytes, base64) on the api and worker to store integration tokens',
      );
    }
    return this.secrets.encrypt(token);
  }
}
