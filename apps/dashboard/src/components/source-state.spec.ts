import { describe, expect, it } from 'vitest';
import { fixHint, sourceState, type SourceStateInput } from './source-state';

const run = (changes: Partial<NonNullable<SourceStateInput['lastRun']>>) => ({
  status: 'COMPLETED',
  progress: { pagesPlanned: null, pagesDone: 0 },
  health: { state: 'OK' },
  ...changes,
});

describe('a source card’s state', () => {
  it('is FAILING, not ACTIVE, when the last sync failed, with the first line of why and a hint', () => {
    const state = sourceState({
      status: 'ACTIVE',
      lastRun: run({
        status: 'FAILED',
        error: { code: 'SOURCE_UNREACHABLE', message: 'getaddrinfo ENOTFOUND wiki.example\n    at lookup' },
      }),
    });
    expect(state).toMatchObject({
      label: 'FAILING',
      color: 'red',
      reason: 'getaddrinfo ENOTFOUND wiki.example',
    });
    expect(state.hint).toMatch(/check its URL/);
  });

  it('is FAILING with "set a new token" when the source needs one', () => {
    expect(sourceState({ status: 'NEEDS_TOKEN', lastRun: run({ status: 'FAILED' }) })).toMatchObject({
      label: 'FAILING',
      hint: expect.stringMatching(/set a new token/i),
    });
  });

  it('is STALLED with the cause, or RUNNING with pages done and planned', () => {
    const moving = run({
      status: 'RUNNING',
      stage: 'INGESTING',
      progress: { pagesPlanned: 12, pagesDone: 5 },
    });
    expect(sourceState({ status: 'ACTIVE', lastRun: moving })).toEqual({
      label: 'RUNNING',
      color: 'blue',
      progress: { done: 5, planned: 12, stage: 'INGESTING' },
    });
    // With its pace known, the time left too.
    expect(sourceState({ status: 'ACTIVE', lastRun: { ...moving, etaSeconds: 90 } }).progress).toEqual({
      done: 5,
      planned: 12,
      stage: 'INGESTING',
      etaSeconds: 90,
    });
    const stalled = { ...moving, health: { state: 'STALLED', message: 'no worker polls trove-ingest' } };
    expect(sourceState({ status: 'ACTIVE', lastRun: stalled })).toMatchObject({
      label: 'STALLED',
      reason: 'no worker polls trove-ingest',
    });
  });

  it('is the source’s status after a success, NEVER SYNCED before any run, not FAILING for a skipped schedule', () => {
    expect(sourceState({ status: 'ACTIVE', lastRun: run({}) })).toMatchObject({
      label: 'ACTIVE',
      color: 'green',
    });
    expect(sourceState({ status: 'ACTIVE', lastRun: null }).label).toBe('NEVER SYNCED');
    const skipped = run({
      status: 'FAILED',
      error: { code: 'SKIPPED', message: 'another sync was running' },
    });
    expect(sourceState({ status: 'ACTIVE', lastRun: skipped }).label).toBe('ACTIVE');
  });
});

describe('the fix hint of a failed sync', () => {
  it('names the setting for a path outside the readable folders', () => {
    expect(
      fixHint(
        'BAD_REQUEST',
        '/srv/x is not an existing file or folder inside the folders sources may read (TROVE_FOLDER_ROOTS)',
      ),
    ).toMatch(/outside the folders this server may read.*TROVE_FOLDER_ROOTS/);
  });

  it('says to start the workflow service for a run that did not start, and falls back to the details', () => {
    expect(fixHint('NOT_STARTED', 'the workflow service (Temporal) is unavailable')).toMatch(/Temporal/);
    expect(fixHint('PARSE_FAILED', 'bad file')).toMatch(/details below/);
  });
});
