import { describe, expect, it } from 'vitest';
import type { RerankCandidate } from '@trove/domain';
import { extractFeatures, FEATURE_NAMES, namedFeatures, proximity, scriptLanguage, terms } from './features';

function candidate(overrides: Partial<RerankCandidate>): RerankCandidate {
  return { id: 'c', text: '', title: '', headingPath: [], position: 0, fusedScore: 0, ...overrides };
}

const column = (rows: number[][], name: (typeof FEATURE_NAMES)[number]) =>
  rows.map((row) => row[FEATURE_NAMES.indexOf(name)]);

describe('learned reranker features', () => {
  it('stems words to their first letters and drops stop words, in any script', () => {
    expect(terms('The Vaccines of children, и прививки детям')).toEqual([
      'vaccin',
      'childr',
      'привив',
      'детям',
    ]);
  });

  it('reads Chinese (and Japanese, Korean) runs as character bigrams, as the BM25 leg does', () => {
    expect(terms('如何回滚发布？Trove 3.0版')).toEqual([
      '如何',
      '何回',
      '回滚',
      '滚发',
      '发布',
      'trove',
      '3',
      '0',
      '版',
    ]);
    // Coverage is measured on those bigrams: the passage that holds the question's words covers it.
    const rows = extractFeatures('如何回滚发布', [
      candidate({ text: '回滚发布：运行 trove rollback。' }),
      candidate({ text: '部署新版本之前先备份。' }),
    ]);
    expect(column(rows, 'terms.coverage')).toEqual([3 / 5, 0]);
    expect(column(rows, 'terms.phrase')[0]).toBeCloseTo(2 / 4);
  });

  it('normalises leg scores per query and marks a leg that missed the candidate', () => {
    const rows = extractFeatures('vitamin d', [
      candidate({ bm25: { rank: 1, score: 20 }, knn: { rank: 2, score: 0.9 }, fusedScore: 0.032 }),
      candidate({ bm25: { rank: 2, score: 5 }, fusedScore: 0.016 }),
      candidate({ knn: { rank: 1, score: 0.95 }, fusedScore: 0.016 }),
    ]);
    expect(column(rows, 'bm25.scoreRatio')).toEqual([1, 0.25, 0]);
    expect(column(rows, 'bm25.reciprocalRank')).toEqual([1, 0.5, 0]);
    expect(column(rows, 'bm25.missing')).toEqual([0, 0, 1]);
    expect(column(rows, 'knn.gapToBest').map((x) => Number(x.toFixed(3)))).toEqual([0.05, 1, 0]);
    expect(column(rows, 'knn.missing')).toEqual([0, 1, 0]);
    expect(column(rows, 'fused.scoreRatio')).toEqual([1, 0.5, 0.5]);
    expect(column(rows, 'fused.reciprocalRank')).toEqual([1, 0.5, 1 / 3]);
  });

  it('keys the same features by name, every name present', () => {
    const candidates = [
      candidate({ text: 'vitamin d dose', bm25: { rank: 1, score: 20 }, fusedScore: 0.03 }),
      candidate({ text: 'sleep', knn: { rank: 1, score: 0.9 }, fusedScore: 0.02 }),
    ];
    const rows = extractFeatures('vitamin d', candidates);
    const named = namedFeatures('vitamin d', candidates);
    expect(Object.keys(named[0])).toEqual([...FEATURE_NAMES]);
    expect(named.map((features) => FEATURE_NAMES.map((name) => features[name]))).toEqual(rows);
    expect(named[1]['bm25.missing']).toBe(1);
  });

  it("places each candidate within its leg's score distribution, and tells how sure the leg is of its top", () => {
    const sure = extractFeatures('vitamin d', [
      candidate({ bm25: { rank: 1, score: 30 }, knn: { rank: 1, score: 0.9 } }),
      candidate({ bm25: { rank: 2, score: 5 }, knn: { rank: 2, score: 0.89 } }),
      candidate({ bm25: { rank: 3, score: 4.9 }, knn: { rank: 3, score: 0.88 } }),
      candidate({ knn: { rank: 4, score: 0.87 } }),
      candidate({ bm25: { rank: 4, score: 4.8 } }),
      candidate({ bm25: { rank: 5, score: 4.7 } }),
    ]);
    // Evenly spaced scores: the top is one step ahead, like every other candidate.
    const unsure = extractFeatures(
      'vitamin d',
      [6, 5.9, 5.8, 5.7, 5.6, 5.5].map((score, i) => candidate({ bm25: { rank: i + 1, score } })),
    );
    const z = column(sure, 'bm25.zScore');
    expect(z[0]).toBeGreaterThan(1);
    expect(z[1]).toBeLessThan(0);
    expect(z[3]).toBe(-3);
    expect(column(sure, 'bm25.logScore')[0]).toBeCloseTo(Math.log1p(30));
    expect(column(sure, 'legs.both')).toEqual([1, 1, 1, 0, 0, 0]);
    // A top far above the rest gives its candidate a larger confidence than a top in a crowd.
    expect(column(sure, 'bm25.confidence×scoreRatio')[0]).toBeGreaterThan(
      4 * column(unsure, 'bm25.confidence×scoreRatio')[0],
    );
  });

  it('measures query-term coverage, rarity-weighted coverage, phrase, proximity and title matches', () => {
    const rows = extractFeatures('vitamin deficiency in elderly patients', [
      candidate({ text: 'Vitamin deficiency is common in elderly patients.', title: 'Elderly care' }),
      candidate({
        text: 'Patients received vitamin supplements; the elderly were excluded from deficiency tests.',
      }),
      candidate({ text: 'Nothing relevant here.' }),
    ]);
    expect(column(rows, 'terms.coverage')).toEqual([1, 1, 0]);
    expect(column(rows, 'terms.phrase')[0]).toBeCloseTo(2 / 3);
    expect(column(rows, 'terms.phrase')[1]).toBe(0);
    const [near, far] = column(rows, 'terms.proximity');
    expect(near).toBeGreaterThan(far);
    expect(column(rows, 'title.coverage')).toEqual([0.25, 0, 0]);
    expect(column(rows, 'terms.weightedCoverage')).toEqual([1, 1, 0]);
  });

  it('compares the script of the query with the chunk language', () => {
    const rows = extractFeatures('что такое витамин D', [
      candidate({ language: 'ru' }),
      candidate({ language: 'en' }),
      candidate({}),
    ]);
    expect(column(rows, 'language.match')).toEqual([1, 0, 0.5]);
    expect(scriptLanguage('vitamin D')).toBe('en');
  });

  it('reads chunk length and position', () => {
    const rows = extractFeatures('x', [
      candidate({ position: 0, tokenCount: 99 }),
      candidate({ position: 3 }),
    ]);
    expect(column(rows, 'chunk.first')).toEqual([1, 0]);
    expect(column(rows, 'chunk.reciprocalPosition')).toEqual([1, 0.25]);
    expect(column(rows, 'chunk.logLength')).toEqual([Math.log(100), 0]);
  });

  it('proximity is matched terms over the shortest window holding them all', () => {
    expect(proximity(['a', 'x', 'b', 'a', 'b'], new Set(['a', 'b']))).toBe(1);
    expect(proximity(['a', 'x', 'x', 'b'], new Set(['a', 'b']))).toBe(0.5);
    expect(proximity(['a'], new Set(['a']))).toBe(0);
  });
});
