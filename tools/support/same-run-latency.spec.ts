import { describe, expect, it } from 'vitest';
import { SearchMode } from '@trove/domain';
import { interleave, latencyRatio, p95, rawMs } from './same-run-latency';

describe('interleave', () => {
  it('runs every configuration once per query, query by query, the first one rotating', () => {
    const order = interleave(['q1', 'q2', 'q3', 'q4'], ['A', 'B', 'C']).map(
      ({ query, configuration }) => `${query}${configuration}`,
    );
    expect(order).toEqual([
      'q1A',
      'q1B',
      'q1C',
      'q2B',
      'q2C',
      'q2A',
      'q3C',
      'q3A',
      'q3B',
      'q4A',
      'q4B',
      'q4C',
    ]);
  });

  it('alternates two configurations A B, B A, … and gives each step its query index', () => {
    const steps = interleave(['x', 'y'], ['A', 'B']);
    expect(steps.map((s) => s.configuration)).toEqual(['A', 'B', 'B', 'A']);
    expect(steps.map((s) => s.queryIndex)).toEqual([0, 0, 1, 1]);
  });

  it('is empty without queries or configurations', () => {
    expect(interleave([], ['A'])).toEqual([]);
    expect(interleave(['q'], [])).toEqual([]);
  });
});

describe('rawMs', () => {
  const legs = { embedMs: 70, keywordMs: 10, vectorMs: 8 };

  it('sums the separate requests each mode makes', () => {
    expect(rawMs(SearchMode.KEYWORD, legs)).toBe(10);
    expect(rawMs(SearchMode.VECTOR, legs)).toBe(78);
    expect(rawMs(SearchMode.HYBRID, legs)).toBe(88);
  });

  it('refuses a mode whose legs were not all timed', () => {
    expect(rawMs(SearchMode.KEYWORD, { keywordMs: 4 })).toBe(4);
    expect(() => rawMs(SearchMode.HYBRID, { keywordMs: 4 })).toThrow(/embedMs of a HYBRID search/);
  });
});

describe('latencyRatio and p95', () => {
  it('divides the p95s, two decimals, and shows – without a raw baseline', () => {
    expect(latencyRatio(150, 100)).toBe('1.50');
    expect(latencyRatio(91, 100)).toBe('0.91');
    expect(latencyRatio(10, 0)).toBe('–');
    expect(latencyRatio(10, undefined)).toBe('–');
  });

  it('takes the nearest-rank p95 and leaves an empty list undefined', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(p95(values)).toBe(19);
    expect(p95([1.234], 2)).toBe(1.23);
    expect(p95([])).toBeUndefined();
  });
});
