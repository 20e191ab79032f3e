import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { EmbeddingError } from './embedding-error';

/** A text any embedding model embeds: if the server fails on this too, the server is at fault. */
export const PROBE_TEXT = 'ok';

/** One text of a request the server refused, by its index in the request. */
export interface EmbeddingRejection {
  index: number;
  /** The server's answer to that text alone. */
  reason: string;
}

/**
 * The embedding server fails on some texts while it embeds others (a probe, their batch-mates):
 * the texts themselves are the cause, and retrying them alone will not help. Permanent; callers
 * that want to rule out a coincidence retry a few times before giving up.
 */
export class EmbeddingRejectedError extends TroveError {
  constructor(
    readonly rejected: EmbeddingRejection[],
    /** The vectors of the texts that were embedded, by index; undefined for the rejected ones. */
    readonly vectors: (number[] | undefined)[],
  ) {
    super(
      TroveErrorCode.EmbeddingRejected,
      `the embedding server refuses ${rejected.length} of ${vectors.length} texts while it embeds others: ${rejected[0]?.reason}`,
      { permanent: true },
    );
    this.name = 'EmbeddingRejectedError';
  }
}

/**
 * Embeds `texts`; when the server answers a request with a server error (500, not 502–504), tells a poison
 * input from an outage. A probe embedding that fails too is an outage: the original error is
 * thrown (transient, retried by the caller). Otherwise the batch is bisected so that only the
 * texts the server fails on alone are rejected ({@link EmbeddingRejectedError}) and every other
 * text still gets its vector; a failure that does not recur was a blip and all vectors return.
 *
 * A request the server does not answer in time while it answers a probe is the request's fault
 * too: all its texts are rejected, without bisecting (each half could take the whole timeout
 * again). Callers retry a rejection, so a server that was merely slow once gets another chance.
 */
export async function embedIsolatingRejections(
  embedder: EmbeddingProvider,
  texts: string[],
  purpose: EmbeddingPurpose,
  options: EmbedOptions = {},
): Promise<number[][]> {
  let first: unknown;
  try {
    return await embedder.embed(texts, purpose, options);
  } catch (error) {
    if (!mayBeTheInput(error) && !timedOut(error)) throw error;
    first = error;
  }
  await probe(embedder, purpose, options, first);
  if (timedOut(first)) {
    const reason = `${first.message}, while it answers other requests`;
    throw new EmbeddingRejectedError(
      texts.map((_, index) => ({ index, reason })),
      texts.map(() => undefined),
    );
  }
  const vectors: (number[] | undefined)[] = new Array(texts.length).fill(undefined);
  const rejected: EmbeddingRejection[] = [];
  await bisect(embedder, texts, 0, purpose, options, first as EmbeddingError, vectors, rejected);
  if (rejected.length === 0) return vectors as number[][];
  // The server might have gone down while the batch was being bisected: then it is not the input.
  await probe(embedder, purpose, options, first);
  throw new EmbeddingRejectedError(rejected, vectors);
}

/**
 * Gateway and availability answers (502, 503, 504) say the server is away or overloaded, never
 * that it cannot take an input: they are outages without a probe.
 */
const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** Another server error (500 …): the server answered, so it may be this input it cannot take. */
function mayBeTheInput(error: unknown): error is EmbeddingError {
  return (
    error instanceof EmbeddingError &&
    error.status !== undefined &&
    error.status >= 500 &&
    !OUTAGE_STATUSES.has(error.status)
  );
}

function timedOut(error: unknown): error is EmbeddingError {
  return error instanceof EmbeddingError && error.timedOut;
}

/** Resolves when the server embeds a probe; otherwise throws `original` (an outage, retried). */
async function probe(
  embedder: EmbeddingProvider,
  purpose: EmbeddingPurpose,
  options: EmbedOptions,
  original: unknown,
): Promise<void> {
  try {
    await embedder.embed([PROBE_TEXT], purpose, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw original;
  }
}

/** Embeds `texts` (which failed together with `failure`) in halves, down to the texts that fail alone. */
async function bisect(
  embedder: EmbeddingProvider,
  texts: string[],
  offset: number,
  purpose: EmbeddingPurpose,
  options: EmbedOptions,
  failure: EmbeddingError,
  vectors: (number[] | undefined)[],
  rejected: EmbeddingRejection[],
): Promise<void> {
  if (texts.length === 1) {
    rejected.push({ index: offset, reason: failure.message });
    return;
  }
  const middle = Math.ceil(texts.length / 2);
  for (const [start, part] of [
    [0, texts.slice(0, middle)],
    [middle, texts.slice(middle)],
  ] as const) {
    try {
      const partVectors = await embedder.embed(part, purpose, options);
      partVectors.forEach((vector, i) => (vectors[offset + start + i] = vector));
    } catch (error) {
      if (!mayBeTheInput(error)) throw error;
      await bisect(embedder, part, offset + start, purpose, options, error, vectors, rejected);
    }
  }
}
