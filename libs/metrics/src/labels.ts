import type { Histogram } from 'prom-client';
import { TroveErrorCode } from '@trove/domain';

const CODES = new Set<string>(Object.values(TroveErrorCode));

/**
 * The error code of a failure as a label value: a TroveError's code, a Temporal failure's type
 * when it is one of ours, CANCELLED for an abort, else UNKNOWN. Never the message: it may name a
 * host, a file or a piece of text.
 */
export function errorCodeLabel(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, type, name } = error as { code?: unknown; type?: unknown; name?: unknown };
    if (typeof code === 'string' && CODES.has(code)) return code;
    if (typeof type === 'string' && CODES.has(type)) return type;
    if (name === 'AbortError' || name === 'CancelledFailure') return TroveErrorCode.Cancelled;
  }
  return 'UNKNOWN';
}

/** `value` when it is one of `allowed`, else `other`: a label from a client's input stays a closed set. */
export function closedLabel(value: unknown, allowed: readonly string[], other = 'OTHER'): string {
  return typeof value === 'string' && allowed.includes(value) ? value : other;
}

/** Seconds since `startedNs` (process.hrtime.bigint()). */
export function secondsSince(startedNs: bigint): number {
  return Number(process.hrtime.bigint() - startedNs) / 1e9;
}

/**
 * Runs `work` and observes its duration in `histogram` with `labels` and an `outcome` label:
 * `ok`, or the error code it failed with (rethrown).
 */
export async function timed<T, L extends string>(
  histogram: Histogram<L | 'outcome'>,
  labels: Partial<Record<L, string>>,
  work: () => Promise<T>,
): Promise<T> {
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    histogram.observe(
      { ...labels, outcome: 'ok' } as Partial<Record<L | 'outcome', string>>,
      secondsSince(started),
    );
    return result;
  } catch (error) {
    histogram.observe(
      { ...labels, outcome: errorCodeLabel(error) } as Partial<Record<L | 'outcome', string>>,
      secondsSince(started),
    );
    throw error;
  }
}
