import type { ProgressSample } from './model';

/** The rate is measured over about this much recent time, not since the run started. */
export const RATE_WINDOW_MS = 60_000;
/** Samples a run keeps: enough to span the window at one write every 2 s. */
const SAMPLES_KEPT = 40;

/**
 * `samples` with a new one appended, trimmed to what the rate needs: those inside the window,
 * plus the newest one before it (the window's start).
 */
export function appendProgressSample(
  samples: readonly ProgressSample[] | undefined,
  sample: ProgressSample,
): ProgressSample[] {
  const all = [...(samples ?? []).filter((s) => s.at <= sample.at), sample];
  const windowStart = sample.at - RATE_WINDOW_MS;
  const firstInside = all.findIndex((s) => s.at >= windowStart);
  const kept = all.slice(Math.max(0, firstInside - 1));
  return kept.slice(-SAMPLES_KEPT);
}

export interface SyncRate {
  /** Pages per second over the last `RATE_WINDOW_MS` (up to now: a run that stopped moving slows to 0). */
  pagesPerSecond: number;
  /** Seconds until the planned pages are done at that rate; absent when unknown or not moving. */
  etaSeconds?: number;
}

/**
 * The current rate from recent samples, measured from the sample at (or just before) the window's
 * start up to `now`, so it falls as soon as progress stops instead of keeping the run's average.
 * Undefined until a second has passed since the first sample.
 */
export function syncRate(
  samples: readonly ProgressSample[] | undefined,
  now: number,
  pagesPlanned?: number,
): SyncRate | undefined {
  if (!samples || samples.length === 0) return undefined;
  const latest = samples[samples.length - 1];
  const windowStart = now - RATE_WINDOW_MS;
  let anchor = samples[0];
  for (const sample of samples) if (sample.at <= windowStart) anchor = sample;
  const elapsedMs = now - anchor.at;
  if (elapsedMs < 1_000) return undefined;
  const pagesPerSecond = Math.max(0, latest.pages - anchor.pages) / (elapsedMs / 1000);
  const rate: SyncRate = { pagesPerSecond: Math.round(pagesPerSecond * 100) / 100 };
  if (pagesPlanned !== undefined && pagesPerSecond > 0) {
    const left = Math.max(0, pagesPlanned - latest.pages);
    rate.etaSeconds = Math.ceil(left / pagesPerSecond);
  }
  return rate;
}
