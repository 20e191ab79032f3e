import { TroveError, TroveErrorCode } from '@trove/domain';

/** A failed embedding request, with the HTTP status the server answered (none: unreachable). */
export class EmbeddingError extends TroveError {
  constructor(
    code: TroveErrorCode,
    message: string,
    readonly status: number | undefined,
    options: { permanent: boolean; cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'EmbeddingError';
  }
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
