import { Context, type Info } from '@temporalio/activity';
import type { DocumentLeases } from '@trove/catalog';
import { TroveError, TroveErrorCode } from '@trove/domain';

/**
 * The one holder of every per-document ingest: Temporal never runs two of them for one document
 * (they share `ingestWorkflowId`), so a new one may take over a lease a crashed one left.
 */
export const PAGE_LEASE_HOLDER = 'page';

/**
 * A per-document ingest's lease, renewed before its chunks are written and released when it
 * records its outcome: far longer than its stages' 2 h schedule-to-close, so it outlives any
 * ingest still running. Long costs nothing: a lease left by a dead ingest is taken over by the
 * next per-document ingest (the same holder), which is where a batch sends that document.
 */
export const PAGE_LEASE_MS = 24 * 60 * 60 * 1_000;

/**
 * A batch's lease: a little over `ingestBatch`'s 10 min start-to-close, so a batch whose worker
 * died frees its documents soon after Temporal gives up on that attempt.
 */
export const BATCH_LEASE_MS = 11 * 60 * 1_000;

/**
 * How long `fetchDocument` waits, heartbeating, for a batch holding its document before it fails
 * DOCUMENT_BUSY and leaves the rest to its retry policy: a batch of small documents ends within
 * seconds, sooner than the retry backoff would notice.
 */
export const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = 500;

/**
 * A batch activity's holder: the same for every attempt of that activity (a retried attempt
 * takes back its own leases), different for any other activity or workflow run.
 */
export function batchLeaseHolder(info: Pick<Info, 'activityId' | 'workflowExecution'>): string {
  const execution = info.workflowExecution;
  return execution
    ? `batch:${execution.workflowId}/${execution.runId}/${info.activityId}`
    : `batch:${info.activityId}`;
}

/**
 * Takes (or renews) the per-document lease of `documentId`. While another ingest holds it, polls
 * for up to `waitMs` (heartbeating; cancellation stops it), then throws a retryable DOCUMENT_BUSY.
 * A missing document is not an error here: the caller's reading of it decides.
 */
export async function claimForPage(
  leases: DocumentLeases,
  documentId: string,
  waitMs: number,
): Promise<void> {
  const context = Context.current();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { held } = await leases.claimDocuments([documentId], PAGE_LEASE_HOLDER, PAGE_LEASE_MS);
    if (held.length === 0) return;
    if (Date.now() >= deadline) throw documentBusy(documentId, held[0]);
    context.heartbeat({ waitingFor: held[0].holder });
    await context.sleep(Math.min(BUSY_POLL_MS, Math.max(1, deadline - Date.now())));
  }
}

function documentBusy(
  documentId: string,
  lease: { holder: string | null; until: string | null },
): TroveError {
  const by = lease.holder?.startsWith('batch:') ? 'a sync batch' : 'another ingest';
  const until = lease.until ? ` (its lease ends at ${lease.until} at the latest)` : '';
  return new TroveError(
    TroveErrorCode.DocumentBusy,
    `document ${documentId} is being ingested by ${by}${until}; retrying once it is done`,
  );
}
