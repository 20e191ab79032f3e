import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { describeFailure, INTERNAL_FAILURE_MESSAGE } from './ingest-document.workflow';

/** How an activity's failure reaches the workflow: wrapped in an ActivityFailure. */
function fromActivity(cause: ApplicationFailure): ActivityFailure {
  return new ActivityFailure(
    'activity failed',
    'planSync',
    '1',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    'worker',
    cause,
  );
}

describe('describeFailure (what a run or document error tells the client)', () => {
  it('an unexpected error (code "Error", a server path) becomes INTERNAL with a generic message', () => {
    // A plain Error thrown in an activity arrives as an ApplicationFailure typed by its name.
    const raw = ApplicationFailure.create({
      type: 'Error',
      message:
        "ENOENT: no such file or directory, scandir '/home/trove/.trove/folder-cache/0b4f/abc.tmp/docs'",
    });
    expect(describeFailure(fromActivity(raw))).toEqual({
      code: TroveErrorCode.Internal,
      message: INTERNAL_FAILURE_MESSAGE,
    });
    expect(describeFailure(new Error('/srv/secret/thing failed'))).toEqual({
      code: TroveErrorCode.Internal,
      message: INTERNAL_FAILURE_MESSAGE,
    });
  });

  it('a known failure keeps its readable message, without absolute server paths', () => {
    const known = ApplicationFailure.create({
      type: TroveErrorCode.BadRequest,
      nonRetryable: true,
      message: '/data/folders/handbook/index.md is a file: FILES needs a folder',
    });
    expect(describeFailure(fromActivity(known))).toEqual({
      code: TroveErrorCode.BadRequest,
      message: '…/index.md is a file: FILES needs a folder',
    });
  });

  it('looks through child workflow failures to the root cause', () => {
    const gone = ApplicationFailure.create({
      type: 'SOURCE_ITEM_GONE',
      message: 'a.md is no longer in the folder',
    });
    const child = new ChildWorkflowFailure(
      'default',
      { workflowId: 'w', runId: 'r' },
      'ingestDocument',
      RetryState.NON_RETRYABLE_FAILURE,
      fromActivity(gone),
    );
    expect(describeFailure(child)).toEqual({
      code: 'SOURCE_ITEM_GONE',
      message: 'a.md is no longer in the folder',
    });
  });
});
