import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { TroveSignals } from '@trove/domain';
import type { UploadActivities, UploadsPage } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure } from './ingest-document.workflow';
import { emptyTally, IngestWindow, OWNER_GONE } from './ingest-window';

export const uploadedSignal = defineSignal<TroveSignals['uploaded']>('uploaded' satisfies keyof TroveSignals);

/** Pending uploads read per activity. */
const IDS_PER_READ = 200;
/** Continue as new once this many documents were taken up, far below Temporal's history limits. */
const DOCUMENTS_PER_EXECUTION = 2_000;
/** With nothing left to ingest for this long, the workflow ends; the next upload starts it again. */
const IDLE = '5m';

const catalog = proxyActivities<UploadActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '1m',
  scheduleToCloseTimeout: '1h',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * Ingests a project's uploaded files in batches. Every upload records its document as PENDING,
 * then signals this workflow (starting it if needed); the workflow reads the project's PENDING
 * uploads from the catalog, oldest first, and ingests them through the same window of units as a
 * sync (small files in batches, large ones each by its own `ingestDocument`). Each pass reads
 * from the start, so an upload whose record landed behind the pass's cursor is found by the next
 * one; a document is taken up once per execution, so one held elsewhere (a reindex) is not
 * spun on. Ends after a quiet period, or when its project is being deleted.
 */
export async function ingestUploads(input: { projectId: string }): Promise<void> {
  let woken = false;
  setHandler(uploadedSignal, () => {
    woken = true;
  });
  const taken = new Set<string>();
  try {
    for (;;) {
      woken = false;
      await ingestPass(input.projectId, taken);
      if (taken.size >= DOCUMENTS_PER_EXECUTION || workflowInfo().continueAsNewSuggested) break;
      // A signal may land in the same task as the idle timeout: only leave when none came.
      if (!woken && !(await condition(() => woken, IDLE)) && !woken) return;
    }
  } catch (error) {
    // The project is being deleted: its deletion takes it from here.
    if (OWNER_GONE.has(describeFailure(error).code)) return;
    throw error;
  }
  // The next execution starts with a full pass, so signals that arrive meanwhile lose nothing.
  await condition(allHandlersFinished);
  await continueAsNew<typeof ingestUploads>(input);
}

/** One pass over the project's PENDING uploads, ingesting those not taken up yet. */
async function ingestPass(projectId: string, taken: Set<string>): Promise<void> {
  let after: UploadsPage['after'];
  let more = true;
  const read = async () => {
    const page = await catalog.pendingUploads({ projectId, after, limit: IDS_PER_READ });
    after = page.after;
    more = page.ids.length === IDS_PER_READ;
    return page;
  };
  let first: UploadsPage | undefined = await read();
  const next = async (): Promise<string[]> => {
    for (;;) {
      const page = first ?? (more ? await read() : undefined);
      first = undefined;
      if (!page) return [];
      const fresh = page.ids.filter((id) => !taken.has(id));
      for (const id of fresh) taken.add(id);
      if (fresh.length) return fresh;
    }
  };
  // Outcomes are recorded on each document (READY, or FAILED with its reason); no run to tally.
  await new IngestWindow(first.units, emptyTally(), { isolateFailedBatches: true }).run(next);
}
