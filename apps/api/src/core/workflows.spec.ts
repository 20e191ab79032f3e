import { afterAll, describe, expect, it, vi } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { TemporalWorkflows } from './temporal-workflows';
import { scheduledStart } from './workflows';

const connection = Connection.lazy({ address: '127.0.0.1:1' });
afterAll(() => connection.close());

/** A real client that never connects (nothing here reaches Temporal): its calls are spied on. */
function client() {
  const temporal = new Client({ connection });
  const handle = temporal.workflow.getHandle('w');
  const start = vi
    .spyOn(temporal.workflow, 'start')
    .mockResolvedValue(Object.assign(handle, { firstExecutionRunId: 'r', eagerlyStarted: false }));
  const signalWithStart = vi
    .spyOn(temporal.workflow, 'signalWithStart')
    .mockResolvedValue(Object.assign(handle, { signaledRunId: 'r' }));
  return { workflows: new TemporalWorkflows(temporal), start, signalWithStart };
}

describe('TemporalWorkflows', () => {
  it('starts a workflow by its contract name with the given options', async () => {
    const { workflows, start } = client();
    const options = {
      taskQueue: 'q',
      workflowId: 'sync-source-s',
      args: [{ runId: 'r' }] as [{ runId: string }],
    };
    await workflows.start('syncSource', options);
    expect(start).toHaveBeenCalledWith('syncSource', options);
  });

  it('signal-with-start passes the signal name beside the signal arguments', async () => {
    const { workflows, signalWithStart } = client();
    await workflows.signalWithStart('sourceEvents', 'sourceEvents', {
      taskQueue: 'q',
      workflowId: 'notion-webhook-s',
      args: ['s'],
      signalArgs: [[]],
    });
    expect(signalWithStart).toHaveBeenCalledWith('sourceEvents', {
      taskQueue: 'q',
      workflowId: 'notion-webhook-s',
      args: ['s'],
      signal: 'sourceEvents',
      signalArgs: [[]],
    });
  });
});

describe('scheduledStart', () => {
  it('builds a schedule action that starts the named workflow', () => {
    expect(scheduledStart('scheduledSync', { taskQueue: 'q', args: ['s'] })).toEqual({
      type: 'startWorkflow',
      workflowType: 'scheduledSync',
      taskQueue: 'q',
      args: ['s'],
    });
  });
});
