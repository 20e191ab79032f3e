/** Stable error codes clients can rely on; the message is for humans. */
export enum TroveErrorCode {
  BadRequest = 'BAD_REQUEST',
  Unauthenticated = 'UNAUTHENTICATED',
  /** The API key is valid but its role does not allow the operation. */
  Forbidden = 'FORBIDDEN',
  /** Too many requests for this API key in the current window; retry after `Retry-After` seconds. */
  RateLimited = 'RATE_LIMITED',
  /** A signed webhook delivery refused as stale (outside the replay window). */
  WebhookExpired = 'WEBHOOK_EXPIRED',
  ProjectNotFound = 'PROJECT_NOT_FOUND',
  DocumentNotFound = 'DOCUMENT_NOT_FOUND',
  SourceNotFound = 'SOURCE_NOT_FOUND',
  ApiKeyNotFound = 'API_KEY_NOT_FOUND',
  /** A person (user record) that does not exist. */
  UserNotFound = 'USER_NOT_FOUND',
  GroupNotFound = 'GROUP_NOT_FOUND',
  /** A personal access token that does not exist or belongs to someone else. */
  TokenNotFound = 'TOKEN_NOT_FOUND',
  /**
   * A sign-in with an identity provider refused: its state, nonce, code or ID token did not
   * check out, the browser did not start it, or the person may not sign in.
   */
  SignInRefused = 'SIGN_IN_REFUSED',
  /** A conversation thread that does not exist, or belongs to another API key. */
  ThreadNotFound = 'THREAD_NOT_FOUND',
  /** A recorded answer that does not exist (or is out of the key's reach). */
  AnswerNotFound = 'ANSWER_NOT_FOUND',
  /** The project is being deleted: nothing may be written to it any more. */
  ProjectDeleting = 'PROJECT_DELETING',
  /** Another project (not being deleted) has the same name, compared case-insensitively. */
  ProjectNameConflict = 'PROJECT_NAME_CONFLICT',
  /** The source system rejected the source's token (revoked or wrong): set a new one. */
  SourceUnauthorized = 'SOURCE_UNAUTHORIZED',
  /** A source item was deleted, unshared or became forbidden: it is skipped and its document removed. */
  SourceItemGone = 'SOURCE_ITEM_GONE',
  /** The source system could not be reached (connection refused or reset, no answer in time): retried. */
  SourceUnreachable = 'SOURCE_UNREACHABLE',
  /** A sync run record is missing (deleted with its source or project). */
  SyncRunNotFound = 'SYNC_RUN_NOT_FOUND',
  /** A sync's plan blob gave fewer ids than it promised (storage lost or changed it). */
  SyncPlanShort = 'SYNC_PLAN_SHORT',
  /** A scheduled run that did not run because another sync of the source was running. */
  Skipped = 'SKIPPED',
  /** A run recorded but whose workflow could not be started (Temporal unreachable). */
  NotStarted = 'NOT_STARTED',
  DocumentNameConflict = 'DOCUMENT_NAME_CONFLICT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  EmptyDocument = 'EMPTY_DOCUMENT',
  UndecodableDocument = 'UNDECODABLE_DOCUMENT',
  ParseFailed = 'PARSE_FAILED',
  /** A PDF whose pages are images only: there is no text to index (OCR is not supported). */
  NoTextLayer = 'NO_TEXT_LAYER',
  /** A password-protected file that does not open with an empty password. */
  EncryptedDocument = 'ENCRYPTED_DOCUMENT',
  /** A file that is truncated or structurally broken. */
  CorruptDocument = 'CORRUPT_DOCUMENT',
  /** An archive refused for safety: unsafe paths, too many entries, too large when expanded. */
  UnsafeArchive = 'UNSAFE_ARCHIVE',
  /** Parsing or chunking took longer or needed more memory than allowed. */
  ParseLimitExceeded = 'PARSE_LIMIT_EXCEEDED',
  /** A GraphQL request over a depth, alias, token, cost or operation limit: refused unexecuted. */
  QueryTooComplex = 'QUERY_TOO_COMPLEX',
  EmbeddingFailed = 'EMBEDDING_FAILED',
  /** The language model failed or answered something unusable (after its retries). */
  LlmFailed = 'LLM_FAILED',
  /** The reranker failed or answered something unusable; search falls back to the fused order. */
  RerankFailed = 'RERANK_FAILED',
  IndexFailed = 'INDEX_FAILED',
  /** An embedding-model change while another index rebuild is still running. */
  IndexRebuildInProgress = 'INDEX_REBUILD_IN_PROGRESS',
  /** The RAG settings changed between reading and saving them. */
  SettingsConflict = 'SETTINGS_CONFLICT',
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  /** The caller gave up (e.g. the HTTP client disconnected); the work was stopped. */
  Cancelled = 'CANCELLED',
  Internal = 'INTERNAL',
  /**
   * The embedding server keeps failing on this text while it embeds other text: the document
   * fails (after a few attempts) instead of retrying for ever.
   */
  EmbeddingRejected = 'EMBEDDING_REJECTED',
  /**
   * Another ingest (a sync's batch) holds the document: the per-document ingest waits and retries
   * until it is done, never writing the document's chunks at the same time. Never permanent.
   */
  DocumentBusy = 'DOCUMENT_BUSY',
}

/** Every error Trove raises on purpose. `permanent` means retrying cannot help (bad input). */
export class TroveError extends Error {
  constructor(
    readonly code: TroveErrorCode,
    message: string,
    readonly options: { permanent?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'TroveError';
  }

  get permanent(): boolean {
    return this.options.permanent ?? false;
  }
}

/** A fault in the input itself: the document fails for good, with this message as its reason. */
export class PermanentDocumentError extends TroveError {
  constructor(code: TroveErrorCode, message: string, cause?: unknown) {
    super(code, message, { permanent: true, cause });
    this.name = 'PermanentDocumentError';
  }
}

/** Records a request can name by id. */
export type RecordKind = 'project' | 'document' | 'source' | 'syncRun' | 'thread' | 'answer';

const NOT_FOUND: Record<RecordKind, { code: TroveErrorCode; noun: string }> = {
  project: { code: TroveErrorCode.ProjectNotFound, noun: 'project' },
  document: { code: TroveErrorCode.DocumentNotFound, noun: 'document' },
  source: { code: TroveErrorCode.SourceNotFound, noun: 'source' },
  syncRun: { code: TroveErrorCode.SyncRunNotFound, noun: 'sync run' },
  thread: { code: TroveErrorCode.ThreadNotFound, noun: 'thread' },
  answer: { code: TroveErrorCode.AnswerNotFound, noun: 'answer' },
};

/**
 * The one answer for a record that does not exist, and for one the caller's API key may not
 * know of: they must not be told apart.
 */
export function notFoundError(kind: RecordKind, id: string): TroveError {
  const { code, noun } = NOT_FOUND[kind];
  return new TroveError(code, `${noun} ${id} does not exist`);
}

export function isTroveError(error: unknown): error is TroveError {
  return error instanceof TroveError;
}
