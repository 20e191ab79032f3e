import { describe, expect, it } from 'vitest';
import { classifyStall, pollerKey, StallReason, type StallEvidence } from './sync-stall';

const QUEUE = 'trove';
const BULK = 'trove.bulk';

function evidence(changes: Partial<StallEvidence> = {}): StallEvidence {
  return {
    running: true,
    taskQueue: QUEUE,
    laneQueues: [BULK, 'trove.interactive'],
    workflowTaskPending: false,
    activities: [],
    pollers: {
      [pollerKey(QUEUE, 'workflow')]: 1,
      [pollerKey(QUEUE, 'activity')]: 1,
      [pollerKey(BULK, 'activity')]: 1,
      [pollerKey('trove.interactive', 'activity')]: 1,
    },
    ...changes,
  };
}

describe('classifyStall', () => {
  it('no worker polling: a workflow task waits on the control queue', () => {
    const diagnosis = classifyStall(evidence({ workflowTaskPending: true, pollers: {} }));
    expect(diagnosis.reason).toBe(StallReason.NO_WORKER);
    expect(diagnosis.message).toBe(
      "no worker is polling task queue trove: the sync's workflow waits for one",
    );
  });

  it('no worker polling the lane an activity is scheduled on, even with an old failure', () => {
    const diagnosis = classifyStall(
      evidence({
        pollers: { [pollerKey(QUEUE, 'workflow')]: 1, [pollerKey(QUEUE, 'activity')]: 1 },
        activities: [
          {
            activityType: 'ingestBatch',
            workflowId: 'sync-1',
            scheduled: true,
            attempt: 3,
            taskQueue: BULK,
            lastFailure: { message: 'worker went away' },
          },
        ],
      }),
    );
    expect(diagnosis).toEqual({
      reason: StallReason.NO_WORKER,
      message: 'no worker is polling task queue trove.bulk: activity ingestBatch waits for one',
    });
  });

  it('an activity retrying: the one with most attempts, with its last error', () => {
    const diagnosis = classifyStall(
      evidence({
        activities: [
          {
            activityType: 'fetchDocument',
            workflowId: 'c1',
            scheduled: false,
            attempt: 2,
            lastFailure: { message: 'x' },
          },
          {
            activityType: 'embedChunks',
            workflowId: 'c2',
            scheduled: true,
            attempt: 7,
            taskQueue: BULK,
            lastFailure: { type: 'SERVICE_UNAVAILABLE', message: 'the embedding server answered 503' },
          },
        ],
      }),
    );
    expect(diagnosis.reason).toBe(StallReason.ACTIVITY_RETRYING);
    expect(diagnosis.message).toBe(
      'activity embedChunks is retrying (attempt 7) (and 1 more failing); last error: SERVICE_UNAVAILABLE: the embedding server answered 503',
    );
  });

  it("a rate limit: the source's or the embedder's 429 in the last failure", () => {
    const fromFailure = classifyStall(
      evidence({
        activities: [
          {
            activityType: 'planSync',
            workflowId: 'sync-1',
            scheduled: true,
            attempt: 2,
            lastFailure: { type: 'APIResponseError', message: 'Rate limited. Retry after 30 s' },
          },
        ],
      }),
    );
    expect(fromFailure.reason).toBe(StallReason.RATE_LIMITED);
    expect(fromFailure.message).toContain('Rate limited. Retry after 30 s');
    const embedder = classifyStall(
      evidence({
        activities: [
          {
            activityType: 'ingestBatch',
            workflowId: 'sync-1',
            scheduled: true,
            attempt: 4,
            lastFailure: {
              type: 'SERVICE_UNAVAILABLE',
              message: 'the embedding server answered 429: slow down',
            },
          },
        ],
      }),
    );
    expect(embedder.reason).toBe(StallReason.RATE_LIMITED);
  });

  it('a closed workflow, and work under way without a fault', () => {
    expect(classifyStall(evidence({ running: false })).reason).toBe(StallReason.WORKFLOW_NOT_RUNNING);
    const slow = classifyStall(
      evidence({ activities: [{ activityType: 'planSync', workflowId: 's', scheduled: false, attempt: 1 }] }),
    );
    expect(slow.reason).toBe(StallReason.UNKNOWN);
    expect(slow.message).toContain('planSync');
  });

  it('an unknown activity queue counts as unpolled only when none of the queues is polled', () => {
    const activity = { activityType: 'ingestBatch', workflowId: 's', scheduled: true, attempt: 1 };
    expect(classifyStall(evidence({ activities: [activity] })).reason).toBe(StallReason.UNKNOWN);
    expect(classifyStall(evidence({ activities: [activity], pollers: {} })).reason).toBe(
      StallReason.NO_WORKER,
    );
  });
});
