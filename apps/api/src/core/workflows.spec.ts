import { describe, expect, it, vi } from 'vitest';
import type { Client as TemporalClient } from '@temporalio/client';
import { scheduledStart, signalWithStart, startWorkflow } from './workflows';

function fakeClient() {
  const workflow = {
    start: vi.fn(async (..._args: unknown[]) => ({ workflowId: 'w' })),
    signalWithStart: vi.fn(async (..._args: unknown[]) => ({ workflowId: 'w' })),
  };
  return { workflow, client: { workflow } as unknown as TemporalClient };
}

describe('typed workflow starters', () => {
  it('start a workflow by its contract name with the given options', async () => {
    const { workflow, client } = fakeClient();
    const options = {
      taskQueue: 'q',
      workflowId: 'sync-source-s',
      args: [{ runId: 'r' }] as [{ runId: string }],
    };
    await startWorkflow(client, 'syncSource', options);
    expect(workflow.start).toHaveBeenCalledWith('syncSource', options);
  });

  it('signal-with-start passes the signal name beside the signal arguments', async () => {
    const { workflow, client } = fakeClient();
    await signalWithStart(client, 'sourceEvents', 'sourceEvents', {
      taskQueue: 'q',
      workflowId: 'notion-webhook-s',
      args: ['s'],
      signalArgs: [[]],
    });
    expect(workflow.signalWithStart).toHaveBeenCalledWith('sourceEvents', {
      taskQueue: 'q',
      workflowId: 'notion-webhook-s',
      args: ['s'],
      signal: 'sourceEvents',
      signalArgs: [[]],
    });
  });

  it('build a schedule action that starts the named workflow', () => {
    expect(scheduledStart('scheduledSync', { taskQueue: 'q', args: ['s'] })).toEqual({
      type: 'startWorkflow',
      workflowType: 'scheduledSync',
      taskQueue: 'q',
      args: ['s'],
    });
  });
});
