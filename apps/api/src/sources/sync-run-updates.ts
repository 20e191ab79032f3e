import { Inject, Injectable } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import { notFoundError, type SyncRun, SyncRunStatus } from '@trove/domain';

/** How often a followed run is read; the worker writes progress at most every 2 s. */
export const SYNC_RUN_POLL_MS = 1000;

/**
 * A sync run as it changes, for the `syncRunUpdates` subscription: the worker records progress
 * in the catalog from another process, so each subscription reads the run once a second and
 * sends it when it differs from the last one sent, ending after the run does.
 */
@Injectable()
export class SyncRunUpdates {
  constructor(@Inject(Catalog) private readonly catalog: Catalog) {}

  async *follow(runId: string, pollMs = SYNC_RUN_POLL_MS): AsyncGenerator<SyncRun> {
    let last = '';
    for (;;) {
      const run = await this.catalog.getRun(runId);
      if (!run) throw notFoundError('syncRun', runId);
      const seen = JSON.stringify(run);
      if (seen !== last) {
        last = seen;
        yield run;
      }
      if (run.status !== SyncRunStatus.RUNNING) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
