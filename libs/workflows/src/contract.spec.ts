import { describe, expect, it } from 'vitest';
import type { TroveSignals, TroveWorkflows } from '@trove/domain';
import * as workflows from './index';

// Every name of the contract, once: the Record type makes the compiler reject a missing or an
// unknown name, and the tests below check at run time what the worker will actually register.
const WORKFLOW_NAMES: Record<keyof TroveWorkflows, true> = {
  ingestDocument: true,
  ingestUploads: true,
  syncSource: true,
  scheduledSync: true,
  sourceEvents: true,
  notionWebhookEvents: true,
  deleteProject: true,
  removeSource: true,
  rebuildIndex: true,
};
const SIGNAL_NAMES: Record<keyof TroveSignals, true> = {
  sourceEvents: true,
  notionEvents: true,
  uploaded: true,
};

describe('the workflow contract', () => {
  it.each(Object.keys(WORKFLOW_NAMES))('%s is an exported workflow function of that name', (name) => {
    const exported: unknown = (workflows as Record<string, unknown>)[name];
    expect(typeof exported).toBe('function');
    // Starting by function (executeChild(syncSource), tests) uses the function's own name.
    expect((exported as () => unknown).name).toBe(name);
  });

  it('defines each signal under its contract name', () => {
    expect([
      workflows.sourceEventsSignal.name,
      workflows.notionEventsSignal.name,
      workflows.uploadedSignal.name,
    ]).toEqual(Object.keys(SIGNAL_NAMES));
  });
});
