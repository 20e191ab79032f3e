import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditFilter,
  auditFilterSchema,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { AuditFilterInput } from './audit.model';

/** A GraphQL or query-string filter as the log's: an action or its start, times checked. */
export function auditFilter(
  input: AuditFilterInput | Record<string, unknown> | null | undefined,
): AuditFilter {
  const raw = Object.fromEntries(
    Object.entries(input ?? {}).filter(([, value]) => value !== null && value !== undefined && value !== ''),
  ) as Record<string, unknown>;
  const action = typeof raw.action === 'string' ? raw.action : undefined;
  delete raw.action;
  if (action !== undefined) {
    if ((AUDIT_ACTIONS as string[]).includes(action)) raw.action = action as AuditAction;
    else raw.actionPrefix = action;
  }
  const parsed = auditFilterSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `the audit filter is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
