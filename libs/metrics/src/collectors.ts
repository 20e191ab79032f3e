import {
  activitySlots,
  activitySlotsUsed,
  catalogPool,
  catalogPoolMax,
  type Lane,
  oldestRunningSyncAge,
  parseThreads,
  parseThreadsRecycled,
  syncRuns,
  taskQueueBacklog,
  taskQueueBacklogAge,
} from './metrics';
import { setScrapeHook } from './scrape-hooks';

/** A read shared by concurrent scrapes and reused for `ttlMs`: a scrape storm is one query. */
export function cachedRead<T>(ttlMs: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: T } | undefined;
  let inFlight: Promise<T> | undefined;
  return () => {
    if (last && Date.now() - last.at < ttlMs) return Promise.resolve(last.value);
    inFlight ??= read()
      .then((value) => {
        last = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}

export interface SyncRunStats {
  /** Runs per state, every state present (0 when none). */
  byState: Record<string, number>;
  /** When the oldest RUNNING run started; undefined when none runs. */
  oldestRunningStartedAt?: Date;
}

/** Sync runs by state and the oldest running one's age, read from the catalog at scrape time. */
export function collectSyncRuns(read: () => Promise<SyncRunStats>, ttlMs = 5_000): void {
  const cached = cachedRead(ttlMs, read);
  setScrapeHook('syncRuns', async () => {
    const stats = await cached();
    for (const [state, count] of Object.entries(stats.byState)) syncRuns.set({ state }, count);
    oldestRunningSyncAge.set(
      stats.oldestRunningStartedAt
        ? Math.max(0, (Date.now() - stats.oldestRunningStartedAt.getTime()) / 1000)
        : 0,
    );
  });
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The catalog's connection pool (pg's totalCount, idleCount, waitingCount). */
export function collectCatalogPool(read: () => PoolStats): void {
  setScrapeHook('catalogPool', () => {
    const { total, idle, waiting, max } = read();
    catalogPool.set({ state: 'total' }, total);
    catalogPool.set({ state: 'idle' }, idle);
    catalogPool.set({ state: 'waiting' }, waiting);
    catalogPoolMax.set(max);
  });
}

export interface LaneSlotStats {
  lane: Lane;
  used: number;
  slots: number;
}

/** This worker's activity slots per lane, busy and configured. */
export function collectWorkerSlots(read: () => LaneSlotStats[]): void {
  setScrapeHook('workerSlots', () => {
    for (const { lane, used, slots } of read()) {
      activitySlotsUsed.set({ lane }, used);
      activitySlots.set({ lane }, slots);
    }
  });
}

export interface BacklogStats {
  lane: Lane;
  kind: 'workflow' | 'activity';
  backlog: number;
  ageSeconds: number;
}

/** The task queues' backlog as Temporal reports it, at scrape time (cached: it is a server call). */
export function collectTaskQueues(read: () => Promise<BacklogStats[]>, ttlMs = 5_000): void {
  const cached = cachedRead(ttlMs, read);
  setScrapeHook('taskQueues', async () => {
    for (const { lane, kind, backlog, ageSeconds } of await cached()) {
      taskQueueBacklog.set({ lane, kind }, backlog);
      taskQueueBacklogAge.set({ lane, kind }, ageSeconds);
    }
  });
}

/** The worker's parsing threads: how many run now, and how many were replaced for their memory. */
export function collectParseThreads(read: () => { running: number; recycled: number }): void {
  let counted = 0;
  setScrapeHook('parseThreads', () => {
    const { running, recycled } = read();
    parseThreads.set(running);
    if (recycled > counted) parseThreadsRecycled.inc(recycled - counted);
    counted = Math.max(counted, recycled);
  });
}

export type CollectorName = 'syncRuns' | 'catalogPool' | 'workerSlots' | 'taskQueues' | 'parseThreads';

/** Forgets scrape-time readers (an app shutting down: its clients are closed). */
export function stopCollectors(names: CollectorName[]): void {
  for (const name of names) setScrapeHook(name, undefined);
}
