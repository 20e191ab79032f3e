import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './rank-fusion';

describe('reciprocalRankFusion', () => {
  it('rewards ids both lists agree on and reports each leg', () => {
    const fused = reciprocalRankFusion(
      [
        [
          { id: 'a', score: 9 },
          { id: 'b', score: 5 },
        ],
        [
          { id: 'b', score: 0.9 },
          { id: 'c', score: 0.8 },
        ],
      ],
      60,
    );
    expect(fused.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61);
    expect(fused[0].legs).toEqual([
      { rank: 2, score: 5 },
      { rank: 1, score: 0.9 },
    ]);
    expect(fused[2].legs).toEqual([undefined, { rank: 2, score: 0.8 }]);
  });

  it('breaks ties by best rank, then by id', () => {
    const fused = reciprocalRankFusion([[{ id: 'x', score: 1 }], [{ id: 'y', score: 1 }]]);
    expect(fused.map((r) => r.id)).toEqual(['x', 'y']);
  });

  it('handles empty lists', () => {
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});
