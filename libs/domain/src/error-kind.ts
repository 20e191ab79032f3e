import { TroveErrorCode } from './errors';

/**
 * Codes the API answers with besides Trove's own: the GraphQL server's (Apollo) and a route that
 * does not exist. Their wire values are Apollo's and must not change.
 */
export enum ProtocolErrorCode {
  GraphqlParseFailed = 'GRAPHQL_PARSE_FAILED',
  GraphqlValidationFailed = 'GRAPHQL_VALIDATION_FAILED',
  BadUserInput = 'BAD_USER_INPUT',
  PersistedQueryNotFound = 'PERSISTED_QUERY_NOT_FOUND',
  PersistedQueryNotSupported = 'PERSISTED_QUERY_NOT_SUPPORTED',
  OperationResolutionFailure = 'OPERATION_RESOLUTION_FAILURE',
  /** No such route (REST). */
  NotFound = 'NOT_FOUND',
}

/**
 * Every stable code a client can get in `extensions.code` (GraphQL) or `error.code` (REST): the
 * GraphQL enum `ErrorCode`. A status with no code of its own comes as `HTTP_<status>`.
 */
export const ErrorCode = { ...TroveErrorCode, ...ProtocolErrorCode } as const;
export type ErrorCode = TroveErrorCode | ProtocolErrorCode;

/** The code a client gives a request that never reached the API (refused, timed out). */
export const NETWORK_ERROR_CODE = 'NETWORK';

/**
 * What a failure means to a client, whichever protocol carried it:
 * - `auth`: no valid API key; `forbidden`: the key may not do this;
 * - `not-found`: the record does not exist or the key cannot see it;
 * - `malformed`: the request itself is wrong (bad input, not a valid operation): fix the call;
 * - `invalid`: a well-formed request refused (a conflict, an unusable file, too large);
 * - `unavailable`: try again later (rate limit, a backend down, the network);
 * - `failure`: the work failed (a backend or Trove itself).
 */
export type ErrorKind =
  'auth' | 'forbidden' | 'not-found' | 'malformed' | 'invalid' | 'unavailable' | 'failure';

/** The kind of each of Trove's own codes; exhaustive, so a new code cannot go unclassified. */
function kindOfTroveCode(code: TroveErrorCode): ErrorKind {
  switch (code) {
    case TroveErrorCode.Unauthenticated:
    case TroveErrorCode.SignInRefused:
      return 'auth';
    case TroveErrorCode.Forbidden:
      return 'forbidden';
    case TroveErrorCode.ProjectNotFound:
    case TroveErrorCode.DocumentNotFound:
    case TroveErrorCode.SourceNotFound:
    case TroveErrorCode.ApiKeyNotFound:
    case TroveErrorCode.UserNotFound:
    case TroveErrorCode.GroupNotFound:
    case TroveErrorCode.TokenNotFound:
    case TroveErrorCode.SyncRunNotFound:
    case TroveErrorCode.ThreadNotFound:
    case TroveErrorCode.AnswerNotFound:
    case TroveErrorCode.SourceItemGone:
      return 'not-found';
    case TroveErrorCode.BadRequest:
      return 'malformed';
    case TroveErrorCode.QueryTooComplex:
    case TroveErrorCode.WebhookExpired:
    case TroveErrorCode.EmptyDocument:
    case TroveErrorCode.UndecodableDocument:
    case TroveErrorCode.ParseFailed:
    case TroveErrorCode.NoTextLayer:
    case TroveErrorCode.EncryptedDocument:
    case TroveErrorCode.CorruptDocument:
    case TroveErrorCode.UnsafeArchive:
    case TroveErrorCode.ParseLimitExceeded:
    case TroveErrorCode.PayloadTooLarge:
    case TroveErrorCode.UnsupportedMediaType:
    case TroveErrorCode.DocumentNameConflict:
    case TroveErrorCode.ProjectNameConflict:
    case TroveErrorCode.ProjectDeleting:
    case TroveErrorCode.IndexRebuildInProgress:
    case TroveErrorCode.SettingsConflict:
    case TroveErrorCode.Skipped:
    case TroveErrorCode.DocumentBusy:
      return 'invalid';
    case TroveErrorCode.RateLimited:
    case TroveErrorCode.ServiceUnavailable:
    case TroveErrorCode.NotStarted:
      return 'unavailable';
    case TroveErrorCode.EmbeddingFailed:
    case TroveErrorCode.EmbeddingRejected:
    case TroveErrorCode.LlmFailed:
    case TroveErrorCode.RerankFailed:
    case TroveErrorCode.IndexFailed:
    case TroveErrorCode.SourceUnauthorized:
    case TroveErrorCode.SourceUnreachable:
    case TroveErrorCode.SyncPlanShort:
    case TroveErrorCode.Cancelled:
    case TroveErrorCode.Internal:
      return 'failure';
    default: {
      const unhandled: never = code;
      throw new Error(`unclassified error code ${String(unhandled)}`);
    }
  }
}

function kindOfProtocolCode(code: ProtocolErrorCode): ErrorKind {
  switch (code) {
    case ProtocolErrorCode.GraphqlParseFailed:
    case ProtocolErrorCode.GraphqlValidationFailed:
    case ProtocolErrorCode.BadUserInput:
    case ProtocolErrorCode.PersistedQueryNotFound:
    case ProtocolErrorCode.PersistedQueryNotSupported:
    case ProtocolErrorCode.OperationResolutionFailure:
      return 'malformed';
    case ProtocolErrorCode.NotFound:
      return 'not-found';
    default: {
      const unhandled: never = code;
      throw new Error(`unclassified error code ${String(unhandled)}`);
    }
  }
}

const TROVE_CODES = new Set<string>(Object.values(TroveErrorCode));
const PROTOCOL_CODES = new Set<string>(Object.values(ProtocolErrorCode));

/** The kind of a bare HTTP status (`HTTP_<status>`, or a body without a code). */
function kindOfStatus(status: number | undefined): ErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 429 || status === 503) return 'unavailable';
  if (status === 400) return 'malformed';
  if (status !== undefined && status >= 400 && status < 500) return 'invalid';
  return 'failure';
}

/**
 * The one classification of an error code, used by the API (its HTTP statuses) and by every
 * client (exit codes, MCP errors, signing out). `status` decides only for a code Trove does not
 * define (`HTTP_<status>`, an unknown code from a newer API).
 */
export function errorKind(code: string, status?: number): ErrorKind {
  if (TROVE_CODES.has(code)) return kindOfTroveCode(code as TroveErrorCode);
  if (PROTOCOL_CODES.has(code)) return kindOfProtocolCode(code as ProtocolErrorCode);
  if (code === NETWORK_ERROR_CODE) return 'unavailable';
  const fromCode = /^HTTP_(\d{3})$/.exec(code);
  return kindOfStatus(fromCode ? Number(fromCode[1]) : status);
}
