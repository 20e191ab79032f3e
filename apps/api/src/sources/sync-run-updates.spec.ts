import { describe, expect, it } from 'vitest';
import { type SyncRun, SyncRunStatus } from '@trove/domain';
import type { SyncRunHealthReader } from './sync-run-health.service';
import { SyncRunUpdates } from './sync-run-updates';
import { StallReason, SyncHealthState } from './sync-stall';

const healthy: SyncRunHealthReader = { of: async () => ({ state: SyncHealthState.OK }) };

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
    const catalog = { getRun: async () => reads.shift() };
    const sent: string[] = [];
    for await (const update of new SyncRunUpdates(catalog, healthy).follow('r', { pollMs: 1 })) {
      sent.push(`${update.status}:${(update.progress as { pagesIngested: number }).pagesIngested}`);
    }
    expect(sent).toEqual(['RUNNING:0', 'RUNNING:3', 'COMPLETED:5']);
    expect(reads).toEqual([]);
  });

  it('sends the run again when it stalls and when it recovers, though its record did not change', async () => {
    const catalog = { getRun: async () => run(SyncRunStatus.RUNNING, 2) };
    const states = [
      { state: SyncHealthState.OK },
      { state: SyncHealthState.OK },
      { state: SyncHealthState.STALLED, reason: StallReason.NO_WORKER, message: 'no worker is polling' },
      { state: SyncHealthState.STALLED, reason: StallReason.NO_WORKER, message: 'no worker is polling' },
      { state: SyncHealthState.OK },
    ];
    const health: SyncRunHealthReader = { of: async () => states.shift() ?? { state: SyncHealthState.OK } };
    const updates = new SyncRunUpdates(catalog, health).follow('r', { pollMs: 1 });
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { value } = await updates.next();
      sent.push(`${value!.health.state}:${value!.health.reason ?? ''}`);
    }
    await updates.return!();
    expect(sent).toEqual(['OK:', 'STALLED:NO_WORKER', 'OK:']);
  });

  it("ends with the check's error once the follower may no longer see the run (a revoked key)", async () => {
    const catalog = { getRun: async () => run(SyncRunStatus.RUNNING, 0) };
    let allowed = true;
    let checks = 0;
    const confirm = async () => {
      checks += 1;
      if (!allowed) throw Object.assign(new Error('the API key was revoked'), { code: 'UNAUTHENTICATED' });
    };
    const updates = new SyncRunUpdates(catalog, healthy).follow('r', {
      pollMs: 1,
      confirm,
      confirmEveryMs: 5,
    });
    expect((await updates.next()).value).toMatchObject({ status: 'RUNNING' });
    allowed = false;
    // The run does not change, so nothing is sent: the periodic check ends the subscription.
    await expect(updates.next()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(checks).toBeGreaterThanOrEqual(2);
  });

  it('shares each read of a run among all its followers', async () => {
    let reads = 0;
    const catalog = {
      getRun: async () => {
        reads += 1;
        return run(SyncRunStatus.RUNNING, 0);
      },
    };
    const updates = new SyncRunUpdates(catalog, healthy);
    const followers = Array.from({ length: 50 }, () => updates.follow('r', { pollMs: 60_000 }));
    const first = await Promise.all(followers.map((follower) => follower.next()));
    expect(first.every((update) => update.value?.status === 'RUNNING')).toBe(true);
    expect(reads).toBe(1);
    await Promise.all(followers.map((follower) => follower.return!(undefined)));
    // With no follower left the shared read is dropped: the next follower reads afresh.
    await updates.follow('r', { pollMs: 60_000 }).next();
    expect(reads).toBe(2);
  });

  it('stops at once when the follower ends it between two reads, reading no more', async () => {
    let reads = 0;
    const catalog = {
      getRun: async () => {
        reads += 1;
        return run(SyncRunStatus.RUNNING, 0);
      },
    };
    const follower = new SyncRunUpdates(catalog, healthy).follow('r', { pollMs: 60_000 });
    expect((await follower.next()).value).toMatchObject({ status: 'RUNNING' });
    const waiting = follower.next(); // asleep until the next read, a minute away
    await expect(follower.return!(undefined)).resolves.toEqual({ done: true, value: undefined });
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    expect(reads).toBe(1);
  });

  it('refuses a run that does not exist', async () => {
    const catalog = { getRun: async () => undefined };
    await expect(
      new SyncRunUpdates(catalog, healthy).follow('missing', { pollMs: 1 }).next(),
    ).rejects.toMatchObject({
      code: 'SYNC_RUN_NOT_FOUND',
    });
  });
});
