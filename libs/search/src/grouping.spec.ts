import { describe, expect, it } from 'vitest';
import type { SearchHit } from '@trove/domain';
import { capPerDocument, groupByDocument, joinChunkTexts } from './grouping';

const hit = (
  chunkId: string,
  documentId: string,
  position: number,
  score: number,
  extra: Partial<SearchHit> = {},
) =>
  ({
    chunkId,
    documentId,
    projectId: 'p',
    title: `Title ${documentId}`,
    headingPath: [`h${position}`],
    text: `text of ${chunkId}`,
    position,
    score,
    ...extra,
  }) satisfies SearchHit;

describe('capPerDocument', () => {
  it('keeps the first n hits of each document in order', () => {
    const hits = [hit('a1', 'A', 1, 5), hit('a2', 'A', 2, 4), hit('b1', 'B', 1, 3), hit('a3', 'A', 3, 2)];
    expect(capPerDocument(hits, 2).map((h) => h.chunkId)).toEqual(['a1', 'a2', 'b1']);
    expect(capPerDocument(hits, 1).map((h) => h.chunkId)).toEqual(['a1', 'b1']);
  });
});

describe('joinChunkTexts', () => {
  it('writes the overlap the chunker repeats once', () => {
    const a = 'First sentence here. The shared closing sentence of chunk one.';
    const b = 'The shared closing sentence of chunk one. And the new text of chunk two.';
    expect(joinChunkTexts(a, b)).toBe(
      'First sentence here. The shared closing sentence of chunk one. And the new text of chunk two.',
    );
  });

  it('separates texts that do not overlap (or share only a few characters) by a blank line', () => {
    expect(joinChunkTexts('Alpha beta gamma.', 'Delta epsilon.')).toBe('Alpha beta gamma.\n\nDelta epsilon.');
    expect(joinChunkTexts('ends with the', 'the start')).toBe('ends with the\n\nthe start');
  });
});

describe('groupByDocument', () => {
  it('orders groups by their best hit and merges consecutive positions into passages in reading order', () => {
    const hits = [
      hit('b5', 'B', 5, 0.9),
      hit('a3', 'A', 3, 0.8),
      hit('b9', 'B', 9, 0.7),
      hit('b4', 'B', 4, 0.6),
      hit('a2', 'A', 2, 0.5),
    ];
    const groups = groupByDocument(hits);
    expect(groups.map((g) => [g.documentId, g.score, g.hits.map((h) => h.chunkId)])).toEqual([
      ['B', 0.9, ['b5', 'b9', 'b4']],
      ['A', 0.8, ['a3', 'a2']],
    ]);
    expect(groups[0].passages.map((p) => [p.chunkIds, p.positionStart, p.positionEnd, p.score])).toEqual([
      [['b4', 'b5'], 4, 5, 0.9],
      [['b9'], 9, 9, 0.7],
    ]);
    expect(groups[0].passages[0].text).toBe('text of b4\n\ntext of b5');
    expect(groups[0].passages[0].headingPath).toEqual(['h4']);
  });

  it('merges context chunks into the passage, marking which were hits, with page range and anchors', () => {
    const a3 = hit('a3', 'A', 3, 0.8, {
      page: 4,
      pageEnd: 5,
      anchor: 'setup',
      context: [
        { ...hit('a2', 'A', 2, 0), page: 3, pageEnd: 4, anchor: 'intro' },
        { ...hit('a4', 'A', 4, 0), page: 5, pageEnd: 6, anchor: 'setup' },
      ],
    });
    const [group] = groupByDocument([a3]);
    expect(group.passages).toHaveLength(1);
    expect(group.passages[0]).toMatchObject({
      chunkIds: ['a2', 'a3', 'a4'],
      hitChunkIds: ['a3'],
      page: 3,
      pageEnd: 6,
      anchors: ['intro', 'setup'],
      score: 0.8,
    });
  });

  it('a chunk that is both a hit and another hit’s context counts once, as a hit', () => {
    const a1 = hit('a1', 'A', 1, 0.9, { context: [hit('a2', 'A', 2, 0)] });
    const a2 = hit('a2', 'A', 2, 0.4, { context: [hit('a1', 'A', 1, 0)] });
    const [group] = groupByDocument([a1, a2]);
    expect(group.passages.map((p) => [p.chunkIds, p.hitChunkIds])).toEqual([
      [
        ['a1', 'a2'],
        ['a1', 'a2'],
      ],
    ]);
  });
});
