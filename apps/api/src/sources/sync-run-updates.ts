import { Inject, Injectable } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import { notFoundError, type SyncRun, SyncRunStatus } from '@trove/domain';

/** How often a followed run is read; the worker writes progress at most every 2 s. */
export const SYNC_RUN_POLL_MS = 1000;
/** Longest a follower goes without its `confirm` check while the run does not change. */
export const CONFIRM_EVERY_MS = 5000;

export interface FollowOptions {
  pollMs?: number;
  /**
   * Throws when the follower may no longer see the run (its API key was revoked): checked before
   * each update is sent, and at least every `confirmEveryMs` in between.
   */
  confirm?: () => Promise<void>;
  confirmEveryMs?: number;
}

/**
 * A sync run as it changes, for the `syncRunUpdates` subscription: the worker records progress
 * in the catalog from another process, so each subscription reads the run once a second and
 * sends it when it differs from the last one sent, ending after the run does.
 */
@Injectable()
export class SyncRunUpdates {
  constructor(@Inject(Catalog) private readonly catalog: Catalog) {}

  async *follow(runId: string, options: FollowOptions = {}): AsyncGenerator<SyncRun> {
    const { pollMs = SYNC_RUN_POLL_MS, confirm, confirmEveryMs = CONFIRM_EVERY_MS } = options;
    let last = '';
    let confirmedAt = Date.now();
    for (;;) {
      const run = await this.catalog.getRun(runId);
      if (!run) throw notFoundError('syncRun', runId);
      const seen = JSON.stringify(run);
      const changed = seen !== last;
      if (confirm && (changed || Date.now() - confirmedAt >= confirmEveryMs)) {
        await confirm();
        confirmedAt = Date.now();
      }
      if (changed) {
        last = seen;
        yield run;
      }
      if (run.status !== SyncRunStatus.RUNNING) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
