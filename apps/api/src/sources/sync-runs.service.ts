import { Inject, Injectable } from '@nestjs/common';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import {
  encodeCursor,
  guardedWrite,
  type PageRequest,
  type SourceRecords,
  type SyncRunHistory,
  type SyncRunRecords,
  type WriteChecks,
} from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import {
  newSyncRun,
  notFoundError,
  ingestPriority,
  type Source,
  SourceStatus,
  type SyncMode,
  type SyncRun,
  SyncRunStatus,
  syncWorkflowId,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { SOURCE_RECORDS, SYNC_RUN_HISTORY, SYNC_RUN_RECORDS, WRITE_CHECKS } from '../core/catalog.providers';
import { toConnection } from '../core/connection.model';
import { CONFIG, WORKFLOWS } from '../core/tokens';
import type { WorkflowControl, WorkflowStarts } from '../core/workflows';

/** Sync runs: starting one (one per source at a time) and reading them. */
@Injectable()
export class SyncRunsService {
  constructor(
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveSource'>,
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'requireSource'>,
    @Inject(SYNC_RUN_RECORDS) private readonly runRecords: SyncRunRecords,
    @Inject(SYNC_RUN_HISTORY) private readonly history: Pick<SyncRunHistory, 'pageRuns' | 'runningRuns'>,
    @Inject(WORKFLOWS) private readonly workflows: WorkflowStarts & WorkflowControl,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  /** Starts a sync run; one run per source at a time. */
  async sync(id: string, mode: SyncMode): Promise<SyncRun> {
    const source = await this.writeChecks.requireActiveSource(id);
    if (source.status === SourceStatus.NEEDS_TOKEN) {
      throw new TroveError(
        TroveErrorCode.SourceUnauthorized,
        "the source rejected this source's token; set a new one with updateSource",
      );
    }
    // Raced the deletion of the source or project: stop the run (its activities refuse anyway).
    return guardedWrite(
      this.writeChecks,
      { sourceId: id },
      () => this.start(source, mode),
      () => this.workflows.cancel(syncWorkflowId(id)),
    );
  }

  /** A page of the source's runs; an unknown source is SOURCE_NOT_FOUND, not an empty page. */
  async runs(sourceId: string, page: PageRequest) {
    await this.sources.requireSource(sourceId);
    const result = await this.history.pageRuns(sourceId, page);
    return toConnection(result, (r) => encodeCursor(new Date(r.startedAt), r.id));
  }

  run(id: string): Promise<SyncRun | undefined> {
    return this.runRecords.getRun(id);
  }

  /**
   * Cancels a running run: its workflow is asked to stop (the page ingests in flight stop with
   * it; what was ingested stays) and the run is recorded as CANCELLED by `who`. A run whose
   * workflow is already gone is marked at once. An ended run is a BAD_REQUEST.
   */
  async cancel(id: string, who: string): Promise<SyncRun> {
    const run = await this.runRecords.getRun(id);
    if (!run) throw notFoundError('syncRun', id);
    if (run.status !== SyncRunStatus.RUNNING) {
      throw new TroveError(TroveErrorCode.BadRequest, `the sync run already ended (${run.status})`);
    }
    try {
      await this.workflows.cancel(syncWorkflowId(run.sourceId));
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
    const ended = {
      status: SyncRunStatus.CANCELLED,
      finishedAt: new Date().toISOString(),
      error: { code: TroveErrorCode.Cancelled, message: `cancelled by ${who}` },
    };
    await this.runRecords.updateRun(run.id, ended);
    return { ...run, ...ended };
  }

  /** Records the run and starts its workflow; a run that could not start is recorded as FAILED. */
  private async start(source: Source, mode: SyncMode): Promise<SyncRun> {
    const run = newSyncRun(source, mode);
    await this.runRecords.createRun(run);
    try {
      await this.startSyncWorkflow(source, run.id);
    } catch (error) {
      const running = error instanceof WorkflowExecutionAlreadyStartedError;
      await this.runRecords.updateRun(run.id, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        // The client's answer below says why; Temporal's own message is not shown to clients.
        error: {
          code: TroveErrorCode.NotStarted,
          message: running
            ? 'a sync of this source is already running'
            : 'the workflow service (Temporal) is unavailable',
        },
      });
      if (running) {
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

  /**
   * One sync workflow per source. A previous run that has recorded its end may still be closing
   * its workflow for a moment: wait for that (briefly) instead of refusing the new run.
   */
  private async startSyncWorkflow(source: Source, runId: string): Promise<void> {
    const sourceId = source.id;
    const start = () =>
      this.workflows.start('syncSource', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: syncWorkflowId(sourceId),
        args: [{ runId }],
        workflowIdConflictPolicy: 'FAIL',
        priority: ingestPriority(source.projectId),
      });
    try {
      await start();
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const running = (await this.history.runningRuns(sourceId)).some((r) => r.id !== runId);
      if (running) throw error;
      await Promise.race([
        this.workflows.result(syncWorkflowId(sourceId)).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 10_000)),
      ]);
      await start();
    }
  }
}
