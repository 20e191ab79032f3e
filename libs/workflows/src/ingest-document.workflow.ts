import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  inWorkflowContext,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
  workflowInfo,
} from '@temporalio/workflow';
import type { IngestDocumentInput, IngestDocumentResult, IngestLane, StageTimings } from '@trove/domain';
import { laneTaskQueue, redactPaths, TroveErrorCode } from '@trove/domain';
import type { IngestActivities } from '@trove/ingest-activities';

/**
 * A cancelled workflow (its project or source is being deleted) closes only once its running
 * activity has stopped, so nothing of it writes after the deletion saw it closed.
 */
export const AWAIT_STOP = ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;

/** Transient faults (Elasticsearch or the embedder down) are retried until the service is back
 * (no maximumAttempts: unlimited within the schedule-to-close timeout). */
export const untilServiceReturns: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '30s',
};

/**
 * Recording the outcome (one catalog update, scratch blobs removed) is cheap and local: a local
 * activity, run by the worker that runs this workflow, without a round trip through a task queue.
 */
const localBookkeeping = proxyLocalActivities<IngestActivities>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '2h',
  retry: untilServiceReturns,
});

/** As ingests started before local bookkeeping recorded their outcome: replayed the same way. */
const queuedBookkeeping = proxyActivities<IngestActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '2h',
  retry: untilServiceReturns,
});

/** Names the change to local bookkeeping, so workflows in flight across an upgrade replay as they ran. */
export const LOCAL_BOOKKEEPING_PATCH = 'ingest-local-bookkeeping';

/** The ingest steps, on the lane's task queue (its own worker slots, apart from control work). */
export function ingestSteps(lane: IngestLane = 'bulk') {
  const taskQueue = laneTaskQueue(workflowInfo().taskQueue, lane);
  return {
    parsing: proxyActivities<IngestActivities>({
      taskQueue,
      cancellationType: AWAIT_STOP,
      // The parse sandbox stops a file after its own limit (4 min by default); heartbeats every 5 s
      // let a crashed worker's parse move to another worker within 30 s.
      startToCloseTimeout: '10m',
      heartbeatTimeout: '30s',
      // A parser crash that is not a recognised bad-input error gets two more tries, then fails the document.
      retry: { initialInterval: '2s', backoffCoefficient: 2, maximumAttempts: 3 },
    }),
    heavy: proxyActivities<IngestActivities>({
      taskQueue,
      cancellationType: AWAIT_STOP,
      startToCloseTimeout: '10m',
      // Activities heartbeat every 5 s, so a crashed worker's activity is retried within 30 s.
      heartbeatTimeout: '30s',
      scheduleToCloseTimeout: '2h',
      retry: untilServiceReturns,
    }),
  };
}

/**
 * fetch → parse → chunk → embed → upsert → finalize, for one document. Re-running it for the same
 * document is safe: chunk ids are deterministic and chunks of earlier versions are removed.
 */
export async function ingestDocument(input: IngestDocumentInput): Promise<IngestDocumentResult> {
  const started = Date.now();
  const timings: StageTimings = {};
  const { heavy, parsing } = ingestSteps(input.lane);
  const bookkeeping = patched(LOCAL_BOOKKEEPING_PATCH) ? localBookkeeping : queuedBookkeeping;
  try {
    // Fetching a source item (a large Notion page, paced under the rate limit) can take minutes.
    const fetched = await heavy.fetchDocument({ documentId: input.documentId });
    timings.fetchMs = fetched.ms;

    const parsed = await parsing.parseDocument(fetched);
    timings.parseMs = parsed.ms;

    const chunked = await parsing.chunkDocument({ fetched, parsedKey: parsed.parsedKey });
    timings.chunkMs = chunked.ms;

    const embeddedKeys: string[] = [];
    let reusedEmbeddings = 0;
    timings.embedMs = 0;
    for (const batchKey of chunked.batchKeys) {
      const embedded = await heavy.embedChunks({ batchKey, ...(input.reembed ? { reembed: true } : {}) });
      embeddedKeys.push(embedded.embeddedKey);
      reusedEmbeddings += embedded.reused;
      timings.embedMs += embedded.ms;
    }

    const upserted = await heavy.upsertChunks({ documentId: input.documentId, embeddedKeys });
    timings.upsertMs = upserted.ms;
    timings.totalMs = Date.now() - started;

    await bookkeeping.finalizeDocument({
      documentId: input.documentId,
      chunkCount: upserted.chunkCount,
      title: parsed.title,
      language: chunked.language,
      timings,
      pageCount: parsed.pageCount,
      warnings: parsed.warnings,
    });
    return { documentId: input.documentId, chunkCount: upserted.chunkCount, reusedEmbeddings };
  } catch (error) {
    const { code, message } = describeFailure(error);
    await bookkeeping.failDocument({ documentId: input.documentId, code, message });
    throw ApplicationFailure.create({ nonRetryable: true, type: code, message, cause: error as Error });
  }
}

/** Failure types raised on purpose, whose messages are written for people: Trove's error codes. */
const KNOWN_FAILURE_TYPES = new Set<string>(Object.values(TroveErrorCode));

/** What a stored run or document error says about a failure nobody anticipated. */
export const INTERNAL_FAILURE_MESSAGE = 'an internal error occurred; the worker log has the details';

/**
 * The failure type and message at the root of an activity or child-workflow failure, as stored
 * on the run or document and shown to clients: a known type keeps its message (absolute server
 * paths removed); anything else (a bug, a file-system error) is INTERNAL with a generic message,
 * its details going to the worker log only.
 */
export function describeFailure(error: unknown): { code: string; message: string } {
  let cause = error;
  while ((cause instanceof ActivityFailure || cause instanceof ChildWorkflowFailure) && cause.cause)
    cause = cause.cause;
  if (cause instanceof ApplicationFailure && cause.type && KNOWN_FAILURE_TYPES.has(cause.type)) {
    return { code: cause.type, message: redactPaths(cause.message) };
  }
  if (inWorkflowContext()) {
    log.warn('unexpected failure, recorded as INTERNAL', {
      type: cause instanceof ApplicationFailure ? cause.type : undefined,
      message: cause instanceof Error ? cause.message : String(cause),
    });
  }
  return { code: TroveErrorCode.Internal, message: INTERNAL_FAILURE_MESSAGE };
}
