import { TroveError, TroveErrorCode } from '@trove/domain';

/** A failed embedding request, with the HTTP status the server answered (none: unreachable). */
export class EmbeddingError extends TroveError {
  /** No answer came within the client's timeout (the server was reached, or not). */
  readonly timedOut: boolean;

  constructor(
    code: TroveErrorCode,
    message: string,
    readonly status: number | undefined,
    options: { permanent: boolean; cause?: unknown; timedOut?: boolean },
  ) {
    super(code, message, options);
    this.name = 'EmbeddingError';
    this.timedOut = options.timedOut ?? false;
  }
}

/** A request the embedding server did not answer within `timeoutMs`: transient until shown otherwise. */
export function embeddingTimeout(timeoutMs: number, cause?: unknown): EmbeddingError {
  return new EmbeddingError(
    TroveErrorCode.ServiceUnavailable,
    `the embedding server did not answer within ${timeoutMs / 1000} s (TROVE_EMBEDDING_TIMEOUT_MS)`,
    undefined,
    { permanent: false, cause, timedOut: true },
  );
}

/**
 * Classifies an embedding server's HTTP status: overload and server faults are transient;
 * a rejected request, key or model is permanent (retrying the same call cannot succeed).
 */
export function embeddingError(status: number | undefined, detail: string, cause?: unknown): EmbeddingError {
  const transient =
    status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
  const reason =
    status === 401 || status === 403
      ? 'the embedding server rejected the API key'
      : status === 404
        ? 'the embedding model or endpoint was not found'
        : status === undefined
          ? 'the embedding server could not be reached'
          : `the embedding server answered ${status}`;
  return new EmbeddingError(
    transient ? TroveErrorCode.ServiceUnavailable : TroveErrorCode.EmbeddingFailed,
    `${reason}: ${detail}`,
    status,
    { permanent: !transient, cause },
  );
}
