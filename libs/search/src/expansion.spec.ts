import { describe, expect, it } from 'vitest';
import type { SearchHit } from '@trove/domain';
import type { StoredChunk } from './chunk-index.ports';
import { neighbourQuery } from './chunk-queries';
import { attachContext } from './expansion';

const stored = (documentId: string, position: number) =>
  ({
    chunkId: `${documentId}${position}`,
    documentId,
    position,
    text: `${documentId}${position}`,
  }) as StoredChunk;

describe('neighbourQuery', () => {
  it('builds one query for every hit: per document the union of its hits’ windows, never below 0', () => {
    const request = neighbourQuery(
      'p',
      [
        { documentId: 'A', position: 0 },
        { documentId: 'A', position: 3 },
        { documentId: 'B', position: 7 },
      ],
      2,
    );
    expect(request?.query).toEqual({
      bool: {
        filter: [{ term: { projectId: 'p' } }],
        should: [
          { bool: { filter: [{ term: { documentId: 'A' } }, { terms: { position: [1, 2, 4, 5] } }] } },
          { bool: { filter: [{ term: { documentId: 'B' } }, { terms: { position: [5, 6, 8, 9] } }] } },
        ],
        minimum_should_match: 1,
      },
    });
    expect(request?.size).toBe(8);
  });

  it('asks nothing for radius 0 or no hits', () => {
    expect(neighbourQuery('p', [{ documentId: 'A', position: 1 }], 0)).toBeUndefined();
    expect(neighbourQuery('p', [], 2)).toBeUndefined();
  });
});

describe('attachContext', () => {
  it('gives each hit its own window in position order, excluding itself', () => {
    const hits = [
      { documentId: 'A', position: 3 } as SearchHit,
      { documentId: 'B', position: 0 } as SearchHit,
    ];
    const neighbours = [
      stored('A', 5),
      stored('A', 2),
      stored('A', 4),
      stored('A', 1),
      stored('B', 1),
      stored('A', 3),
    ];
    const [a, b] = attachContext(hits, neighbours, 1);
    expect(a.context?.map((c) => c.chunkId)).toEqual(['A2', 'A4']);
    expect(b.context?.map((c) => c.chunkId)).toEqual(['B1']);
  });
});
