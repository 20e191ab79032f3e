import type { DocumentCounts, SyncRunHistory } from '@trove/catalog';
import type { SyncRun } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { SourceOverviews } from './source-overviews.service';

/** Runs and document counts that record each batch they are asked for. */
function fakeCatalog() {
  const asked: string[][] = [];
  const runs: Pick<SyncRunHistory, 'latestRuns'> = {
    latestRuns: (ids) => {
      asked.push([...ids]);
      return Promise.resolve(new Map([['a', { id: 'run-a' } as SyncRun]]));
    },
  };
  const documents: Pick<DocumentCounts, 'countBySource'> = {
    countBySource: (ids) => {
      asked.push([...ids]);
      return Promise.resolve(new Map([['a', 3]]));
    },
  };
  return { overviews: new SourceOverviews(runs, documents), asked };
}

describe('source overviews', () => {
  it('read every card of a request in one batch per field, not one query per source', async () => {
    const { overviews, asked } = fakeCatalog();
    const request = {};
    const [runA, runB, countA, countB] = await Promise.all([
      overviews.lastRun(request, 'a'),
      overviews.lastRun(request, 'b'),
      overviews.documentCount(request, 'a'),
      overviews.documentCount(request, 'b'),
    ]);
    expect([runA?.id, runB, countA, countB]).toEqual(['run-a', undefined, 3, 0]);
    expect(asked).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('keep nothing from one request for the next', async () => {
    const { overviews, asked } = fakeCatalog();
    await overviews.documentCount({}, 'a');
    await overviews.documentCount({}, 'a');
    expect(asked).toHaveLength(2);
  });
});
