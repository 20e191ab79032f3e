import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TroveApiError } from '@trove/api-client';
import { TroveErrorCode } from '@trove/domain';

/** Where a tool error's code and message travel in `_meta`, for clients that read them as data. */
export const ERROR_META_KEY = 'trove/error';

/** Reports a failure the server could not explain (a bug, an unexpected answer); never sent to the client. */
export type FailureLog = (message: string) => void;

/** A successful call: the structured result, and its short rendering for models that read text. */
export function toolResult<T extends Record<string, unknown>>(structured: T, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/**
 * A failed call as an MCP tool error (`isError: true`) with the API's stable code and message,
 * e.g. `FORBIDDEN: this API key (role VIEWER) may not do this …`. An unexpected failure becomes
 * `INTERNAL` with a generic message: its details go to the log, never to the client.
 */
export function toolError(error: unknown, log: FailureLog): CallToolResult {
  const { code, message } = describeError(error, log);
  // An invalid source configuration: each field at fault, as data too.
  const problems =
    error instanceof TroveApiError && error.problems.length > 0 ? { problems: error.problems } : {};
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}` }],
    _meta: { [ERROR_META_KEY]: { code, message, ...problems } },
  };
}

/** The code and message a client may see for `error`. */
export function describeError(error: unknown, log: FailureLog): { code: string; message: string } {
  if (error instanceof TroveApiError) return { code: error.code, message: error.message };
  log(`tool failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  return {
    code: TroveErrorCode.Internal,
    message: 'the tool failed unexpectedly; the server log has the details',
  };
}

/** Runs a tool body, turning any failure into a tool error. */
export async function runTool(body: () => Promise<CallToolResult>, log: FailureLog): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error, log);
  }
}
