import { describe, expect, it } from 'vitest';
import { estimateTokens, stubVector } from './vectors';

const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('stubVector', () => {
  it('gives the same text the same vector, every time', () => {
    expect(stubVector('the same text', 384)).toEqual(stubVector('the same text', 384));
  });

  it('gives different texts different, unrelated vectors, even when they differ by one character', () => {
    const a = stubVector('invoice 2024', 384);
    const b = stubVector('invoice 2025', 384);
    expect(a).not.toEqual(b);
    // Unrelated directions in 384 dimensions: the cosine is near 0 (σ ≈ 1/√384 ≈ 0.05).
    expect(Math.abs(dot(a, b))).toBeLessThan(0.3);
  });

  it('makes unit-norm vectors of the configured dimensions', () => {
    for (const dimensions of [1, 3, 384, 768, 1536]) {
      for (const text of ['', 'a', 'Привет, мир', '日本語のテキスト', 'x'.repeat(10_000)]) {
        const vector = stubVector(text, dimensions);
        expect(vector).toHaveLength(dimensions);
        expect(vector.every(Number.isFinite)).toBe(true);
        expect(norm(vector)).toBeCloseTo(1, 5);
      }
    }
  });

  it('spreads its components over both signs', () => {
    const vector = stubVector('spread', 384);
    const positive = vector.filter((x) => x > 0).length;
    expect(positive).toBeGreaterThan(384 * 0.35);
    expect(positive).toBeLessThan(384 * 0.65);
  });

  it('is cheap: a full batch of 2048 texts takes well under a second', () => {
    const started = performance.now();
    for (let i = 0; i < 2048; i++) stubVector(`chunk number ${i} of a long document`, 384);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('estimateTokens', () => {
  it('counts whitespace-separated words, at least one per text', () => {
    expect(estimateTokens('hello world')).toBe(2);
    expect(estimateTokens('  several   spaces\tand\nlines ')).toBe(4);
    expect(estimateTokens('')).toBe(1);
    expect(estimateTokens('   ')).toBe(1);
  });
});
