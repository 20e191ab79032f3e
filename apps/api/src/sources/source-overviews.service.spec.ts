import type { SyncRun } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { type SourceOverviewCatalog, SourceOverviews } from './source-overviews.service';

/** A catalog that records each batch it is asked for. */
function fakeCatalog() {
  const asked: string[][] = [];
  const catalog: SourceOverviewCatalog = {
    runs: {
      latest: (ids) => {
        asked.push([...ids]);
        return Promise.resolve(new Map([['a', { id: 'run-a' } as SyncRun]]));
      },
    },
    documents: {
      countBySource: (ids) => {
        asked.push([...ids]);
        return Promise.resolve(new Map([['a', 3]]));
      },
    },
  };
  return { catalog, asked };
}

describe('source overviews', () => {
  it('read every card of a request in one batch per field, not one query per source', async () => {
    const { catalog, asked } = fakeCatalog();
    const overviews = new SourceOverviews(catalog);
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
    const { catalog, asked } = fakeCatalog();
    const overviews = new SourceOverviews(catalog);
    await overviews.documentCount({}, 'a');
    await overviews.documentCount({}, 'a');
    expect(asked).toHaveLength(2);
  });
});
