import { describe, expect, it } from 'vitest';
import type { Catalog } from '@trove/catalog';
import { type SyncRun, SyncRunStatus } from '@trove/domain';
import { SyncRunUpdates } from './sync-run-updates';

function run(status: SyncRunStatus, pagesIngested: number): SyncRun {
  return { id: 'r', status, progress: { pagesIngested } } as unknown as SyncRun;
}

describe('SyncRunUpdates', () => {
  it('sends the run each time it changes, and ends after it does', async () => {
    const reads = [
      run(SyncRunStatus.RUNNING, 0),
      run(SyncRunStatus.RUNNING, 0),
      run(SyncRunStatus.RUNNING, 3),
      run(SyncRunStatus.COMPLETED, 5),
    ];
    const catalog = { getRun: async () => reads.shift() } as unknown as Catalog;
    const sent: string[] = [];
    for await (const update of new SyncRunUpdates(catalog).follow('r', 1)) {
      sent.push(`${update.status}:${(update.progress as { pagesIngested: number }).pagesIngested}`);
    }
    expect(sent).toEqual(['RUNNING:0', 'RUNNING:3', 'COMPLETED:5']);
    expect(reads).toEqual([]);
  });

  it('refuses a run that does not exist', async () => {
    const catalog = { getRun: async () => undefined } as unknown as Catalog;
    await expect(new SyncRunUpdates(catalog).follow('missing', 1).next()).rejects.toMatchObject({
      code: 'SYNC_RUN_NOT_FOUND',
    });
  });
});
