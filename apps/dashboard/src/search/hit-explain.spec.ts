import { describe, expect, it } from 'vitest';
import { explainInWords, highlightTerms, ordinal } from './hit-explain';

describe('explainInWords', () => {
  it('says which searches found the hit and what put it at its rank', () => {
    expect(explainInWords({ rank: 1, bm25: { rank: 1 }, knn: { rank: 3 }, reranked: true })).toBe(
      'It matched your words (1st by keywords) and matched your meaning (3rd by meaning). A reranker that reads the question and the passage together placed it 1st.',
    );
    expect(explainInWords({ rank: 2, bm25: null, knn: { rank: 2 }, reranked: false })).toBe(
      'It matched your meaning (2nd by meaning). That places it 2nd.',
    );
    expect(explainInWords({ rank: 4, bm25: { rank: 5 }, knn: { rank: 4 }, reranked: false })).toContain(
      'Combining both lists placed it 4th.',
    );
  });

  it('names no internal feature or score', () => {
    const text = explainInWords({ rank: 1, bm25: { rank: 1 }, knn: { rank: 1 }, reranked: true });
    expect(text).not.toMatch(/bm25|knn|rrf|fused|score|\d\.\d/i);
  });
});

describe('ordinal', () => {
  it('writes English ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});

describe('highlightTerms', () => {
  it('keeps the words of three letters or more, once, longest first', () => {
    expect(highlightTerms('How do I roll back a release? Roll!')).toEqual(['release', 'roll', 'back', 'how']);
    expect(highlightTerms('уровни изоляции')).toEqual(['изоляции', 'уровни']);
  });
});
