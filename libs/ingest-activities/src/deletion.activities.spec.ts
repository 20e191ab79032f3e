import type { Client as TemporalClient } from '@temporalio/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeWorkflow } from './deletion.activities';

/** A Temporal client whose one workflow is RUNNING and closes when `finish` is called. */
function clientOfOneWorkflow() {
  let finish!: () => void;
  const result = new Promise<void>((resolve) => (finish = resolve));
  const handle = {
    describe: vi.fn(async () => ({ status: { name: 'RUNNING' } })),
    cancel: vi.fn(async () => undefined),
    result: vi.fn(() => result),
    terminate: vi.fn(async () => undefined),
  };
  const temporal = { workflow: { getHandle: () => handle } } as unknown as TemporalClient;
  return { temporal, handle, finish };
}

describe('closeWorkflow', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('cancels a running workflow and, once it closes, leaves no grace timer behind', async () => {
    const { temporal, handle, finish } = clientOfOneWorkflow();
    const closing = closeWorkflow(temporal, 'sync-1', 120_000);
    await vi.waitFor(() => expect(handle.cancel).toHaveBeenCalled());
    finish();
    await closing;
    expect(handle.terminate).not.toHaveBeenCalled();
    // A pending timer would hold a stopping worker's process open for the rest of the grace.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('terminates a workflow that does not close within the grace period', async () => {
    const { temporal, handle } = clientOfOneWorkflow();
    const closing = closeWorkflow(temporal, 'sync-1', 120_000);
    await vi.waitFor(() => expect(handle.cancel).toHaveBeenCalled());
    await vi.advanceTimersByTimeAsync(120_000);
    await closing;
    expect(handle.terminate).toHaveBeenCalledOnce();
  });
});
