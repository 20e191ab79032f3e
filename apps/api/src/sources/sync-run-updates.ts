import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SyncRunRecords } from '@trove/catalog';
import { notFoundError, type SyncRun, SyncRunStatus } from '@trove/domain';
import { SYNC_RUN_RECORDS } from '../core/catalog.providers';
import {
  type SyncRunHealth,
  type SyncRunHealthReader,
  SyncRunHealthService,
} from './sync-run-health.service';

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

/** A read of one run, shared by every follower that asks within `pollMs` of it. */
interface SharedRead {
  at: number;
  run: Promise<SyncRun | undefined>;
}

/**
 * A sync run as it changes, for the `syncRunUpdates` subscription: the worker records progress
 * in the catalog from another process, so the run is read once a second and sent to each
 * follower when it (or its health: a stall changes no record) differs from the last one that
 * follower got, ending after the run does.
 * Followers of one run share its reads, so the catalog sees one read per run per `pollMs`
 * however many subscriptions follow it.
 */
@Injectable()
export class SyncRunUpdates {
  private readonly reads = new Map<string, SharedRead>();
  private readonly followers = new Map<string, number>();

  constructor(
    @Inject(SYNC_RUN_RECORDS) private readonly runs: Pick<SyncRunRecords, 'getRun'>,
    @Inject(SyncRunHealthService) private readonly health: SyncRunHealthReader,
  ) {}

  /**
   * The run's updates. Ending the iterator (`return()`, as graphql-ws does when the client
   * completes the subscription or the socket closes) stops it at once, between two reads.
   */
  follow(
    runId: string,
    options: FollowOptions = {},
  ): AsyncIterableIterator<SyncRun & { health: SyncRunHealth }> {
    const stop = new AbortController();
    const updates = this.updates(runId, options, stop.signal);
    return {
      next: () => updates.next(),
      return: async () => {
        stop.abort();
        return updates.return(undefined);
      },
      throw: async (error: unknown) => {
        stop.abort();
        return updates.throw(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  private async *updates(
    runId: string,
    options: FollowOptions,
    signal: AbortSignal,
  ): AsyncGenerator<SyncRun & { health: SyncRunHealth }> {
    const { pollMs = SYNC_RUN_POLL_MS, confirm, confirmEveryMs = CONFIRM_EVERY_MS } = options;
    this.followers.set(runId, (this.followers.get(runId) ?? 0) + 1);
    try {
      let last = '';
      let confirmedAt = Date.now();
      while (!signal.aborted) {
        const record = await this.read(runId, pollMs);
        if (!record) throw notFoundError('syncRun', runId);
        const run = { ...record, health: await this.health.of(record) };
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
        try {
          await sleep(pollMs, undefined, { signal });
        } catch {
          return; // ended by the follower
        }
      }
    } finally {
      const left = (this.followers.get(runId) ?? 1) - 1;
      if (left > 0) this.followers.set(runId, left);
      else {
        this.followers.delete(runId);
        this.reads.delete(runId);
      }
    }
  }

  /** The run as last read, when that read is under `pollMs` old (or still under way); else a new read. */
  private read(runId: string, pollMs: number): Promise<SyncRun | undefined> {
    const shared = this.reads.get(runId);
    if (shared && Date.now() - shared.at < pollMs) return shared.run;
    const read: SharedRead = { at: Date.now(), run: this.runs.getRun(runId) };
    // A failed read is not shared with the next caller.
    read.run.catch(() => {
      if (this.reads.get(runId) === read) this.reads.delete(runId);
    });
    this.reads.set(runId, read);
    return read.run;
  }
}
