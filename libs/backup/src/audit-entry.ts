import { hostname, userInfo } from 'node:os';
import { AuditRepository, CatalogLifecycle } from '@trove/catalog';
import type { DatabaseConfig } from '@trove/config';
import { AuditAction, AuditActorKind, type AuditOutcome } from '@trove/domain';

/** What a backup or a restore writes into the install's audit log. */
export interface OperationEntry {
  action: typeof AuditAction.Backup | typeof AuditAction.Restored;
  outcome: AuditOutcome;
  /** The error code of a failure. */
  code?: string;
  /** The folder, and what was backed up or restored (never a secret). */
  detail: Record<string, unknown>;
}

/** The operator's account on this machine: who ran `trove backup` or `trove restore`. */
export function operatorName(command: string): string {
  let account = 'unknown';
  try {
    account = userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers): the account stays unnamed.
  }
  return `trove ${command}, run by ${account}@${hostname()}`;
}

/**
 * Appends a backup's or a restore's entry to the install's audit log. They run beside the install
 * (not through the api, with no key), so the entry names the operator's account on the machine.
 * A log that cannot be written (a catalog from before the audit log, the database gone) is
 * reported to the caller, never fails the backup or restore itself.
 */
export async function recordInAuditLog(
  database: DatabaseConfig,
  entry: OperationEntry,
): Promise<string | undefined> {
  const pool = CatalogLifecycle.open({ url: database.url, schema: database.schema, poolSize: 1 });
  try {
    await new AuditRepository(pool.db).append({
      actor: {
        kind: AuditActorKind.SYSTEM,
        id: null,
        name: operatorName(entry.action === AuditAction.Backup ? 'backup' : 'restore'),
        credential: null,
        credentialId: null,
      },
      address: null,
      userAgent: null,
      action: entry.action,
      target: null,
      projectId: null,
      outcome: entry.outcome,
      code: entry.code ?? null,
      detail: entry.detail,
    });
    return undefined;
  } catch (error) {
    return `not recorded in the audit log: ${(error as Error).message}`;
  } finally {
    await pool.close();
  }
}
