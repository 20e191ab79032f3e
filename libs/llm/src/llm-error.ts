import { TroveError, TroveErrorCode } from '@trove/domain';

/** Longest part of a server's error message kept in ours. */
const MAX_DETAIL_CHARS = 300;

/**
 * Classifies an LLM server's HTTP status: overload and server faults are transient (retried
 * before the first token); a rejected request, key or model is permanent (retrying cannot help).
 * `status` undefined means the server could not be reached or the connection broke.
 */
export function llmError(status: number | undefined, detail: string): TroveError {
  const transient =
    status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
  const reason =
    status === 401 || status === 403
      ? 'the LLM server rejected the API key'
      : status === 404
        ? 'the LLM model or endpoint was not found'
        : status === 400
          ? 'the LLM server refused the request'
          : status === undefined
            ? 'the LLM server could not be reached'
            : `the LLM server answered ${status}`;
  return new TroveError(TroveErrorCode.LlmFailed, `${reason}: ${truncate(detail)}`, {
    permanent: !transient,
  });
}

/** The caller aborted: generation was stopped, nobody waits for a result. */
export function llmCancelled(): TroveError {
  return new TroveError(TroveErrorCode.Cancelled, 'the LLM call was cancelled by its caller', {
    permanent: true,
  });
}

/** A deadline passed; the request was aborted so the server stops generating. */
export function llmTimeout(what: string): TroveError {
  return new TroveError(TroveErrorCode.LlmFailed, `the LLM server timed out: ${what}`);
}

/**
 * Removes a secret from a message. Servers echo keys back (OpenAI's 401 names part of the key
 * it refused, others all of it), and error messages end up in logs and API responses.
 */
export function scrubSecret(message: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return message;
  return message.split(secret).join('[redacted]');
}

function truncate(detail: string): string {
  return detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}…` : detail;
}
