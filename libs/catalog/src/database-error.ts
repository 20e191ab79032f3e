import { TroveError, TroveErrorCode } from '@trove/domain';

/** PostgreSQL SQLSTATE codes the catalog reacts to. */
export const PgCode = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
} as const;

export function pgCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The constraint a violation names (e.g. `documents_upload_name`). */
export function pgConstraint(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | undefined)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '53300', // too_many_connections
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '08000',
  '08003',
  '08006',
]);

/**
 * SQLSTATE classes no retry can pass: data exceptions (22: invalid input syntax, a byte sequence
 * the encoding refuses, a value out of range) and integrity constraint violations (23: the same
 * row breaks the same constraint again).
 */
const PERMANENT_CLASSES = ['22', '23'];

/**
 * A catalog failure for callers: unreachable or restarting PostgreSQL is SERVICE_UNAVAILABLE
 * (transient, retried by activities); anything else is INTERNAL, permanent when the statement
 * itself is refused (its data or a constraint), so an activity fails at once instead of retrying
 * a write that cannot succeed. Messages never carry the connection string.
 */
export function databaseError(error: unknown, action: string): TroveError {
  if (error instanceof TroveError) return error;
  const code = pgCode(error);
  const message = (error as Error | undefined)?.message ?? String(error);
  const transient =
    (code !== undefined && (TRANSIENT_CODES.has(code) || code.startsWith('08'))) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(message);
  if (transient) {
    return new TroveError(
      TroveErrorCode.ServiceUnavailable,
      `the catalog database is unavailable while ${action}`,
      {
        cause: error,
      },
    );
  }
  const permanent = code !== undefined && PERMANENT_CLASSES.includes(code.slice(0, 2));
  return new TroveError(TroveErrorCode.Internal, `the catalog database failed while ${action}: ${message}`, {
    permanent,
    cause: error,
  });
}

/** Runs a query, turning driver errors into TroveErrors. */
export async function query<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw databaseError(error, action);
  }
}
