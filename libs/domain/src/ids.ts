/**
 * The shapes of the ids Trove hands out: random UUIDs (projects, sources, runs, and documents
 * in newer versions) and 32-hex-digit document ids derived from project and file name. Checked
 * before an id reaches a backend, so a malformed one is "not found" or a bad request, never an
 * error from Elasticsearch.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX32 = /^[0-9a-f]{32}$/i;
/** A chunk id: `<document id>-<position>-<12 hex digits of its content hash>`. */
const CHUNK = /^(.+)-(\d{1,9})-([0-9a-f]{12})$/i;

/** A project, source, sync run or document id. */
export function isTroveId(value: unknown): value is string {
  return typeof value === 'string' && (UUID.test(value) || HEX32.test(value));
}

export function isChunkId(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CHUNK.exec(value);
  return match !== null && isTroveId(match[1]);
}

/** Thread and answer ids: a kind prefix and a random UUID, so a log line says what an id names. */
const THREAD_ID = /^thr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ANSWER_ID = /^ans_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh thread id (`thr_<uuid>`). */
export function newThreadId(): string {
  return `thr_${globalThis.crypto.randomUUID()}`;
}

/** A fresh answer id (`ans_<uuid>`). */
export function newAnswerId(): string {
  return `ans_${globalThis.crypto.randomUUID()}`;
}

export function isThreadId(value: unknown): value is string {
  return typeof value === 'string' && THREAD_ID.test(value);
}

export function isAnswerId(value: unknown): value is string {
  return typeof value === 'string' && ANSWER_ID.test(value);
}
