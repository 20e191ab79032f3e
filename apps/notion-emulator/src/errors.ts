/** Error codes of Notion's public API that the emulator answers with. */
export type NotionErrorCode =
  | 'unauthorized'
  | 'restricted_resource'
  | 'object_not_found'
  | 'rate_limited'
  | 'invalid_json'
  | 'invalid_request_url'
  | 'missing_version'
  | 'validation_error'
  | 'internal_server_error'
  | 'service_unavailable'
  | 'gateway_timeout';

/** A failure rendered as Notion's error object `{ object: 'error', status, code, message, request_id }`. */
export class NotionApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: NotionErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'NotionApiError';
  }
}

export function validationError(message: string): NotionApiError {
  return new NotionApiError(400, 'validation_error', message);
}

export type ObjectKind = 'page' | 'block' | 'database' | 'data_source' | 'user';

export function notFound(kind: ObjectKind, id: string): NotionApiError {
  return new NotionApiError(
    404,
    'object_not_found',
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}
