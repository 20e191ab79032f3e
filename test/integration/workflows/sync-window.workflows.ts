import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { IngestDocumentInput, IngestDocumentResult } from '@trove/domain';

// Test-only workflows: the real sync workflows, and a stand-in for the page pipeline under the same
// workflow type name, so the sync's `executeChild(ingestDocument)` starts the stand-in.
export { scheduledSync, syncSource } from '@trove/workflows';

/** The one activity of the stand-in: the test decides, per document id, how long it takes and how it ends. */
export interface FakePageActivities {
  ingestPage(input: IngestDocumentInput): Promise<IngestDocumentResult>;
}

const { ingestPage } = proxyActivities<FakePageActivities>({
  startToCloseTimeout: '1m',
  retry: { maximumAttempts: 1 },
});

/** Pages whose id ends so fail at once, without an activity: cheap when a test needs hundreds. */
export const INSTANT_FAILURE = '-instant-failure';

export async function ingestDocument(input: IngestDocumentInput): Promise<IngestDocumentResult> {
  if (input.documentId.endsWith(INSTANT_FAILURE)) {
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: 'PARSE_FAILED',
      message: `${input.documentId} could not be parsed`,
    });
  }
  return ingestPage(input);
}
