import { createHash } from 'node:crypto';

/**
 * A deterministic unit-norm vector for `text`: sha256 of its UTF-8 bytes seeds a small PRNG (sfc32,
 * 128-bit state) whose outputs in [-1, 1) are normalised. The same text always gets the same vector
 * and different texts get unrelated ones; the vector carries no meaning at all. Values are float32,
 * as a real model's are, so the response has a realistic size.
 */
export function stubVector(text: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(text, 'utf8').digest();
  const next = sfc32(
    digest.readUInt32LE(0),
    digest.readUInt32LE(4),
    digest.readUInt32LE(8),
    digest.readUInt32LE(12),
  );
  const vector = new Float32Array(dimensions);
  let sumOfSquares = 0;
  for (let i = 0; i < dimensions; i++) {
    const value = next() * 2 - 1;
    vector[i] = value;
    sumOfSquares += value * value;
  }
  // An all-zero draw is practically impossible, but must not divide by zero.
  const norm = Math.sqrt(sumOfSquares) || 1;
  for (let i = 0; i < dimensions; i++) vector[i] /= norm;
  return Array.from(vector);
}

/**
 * The `usage.prompt_tokens` the stub reports for `text`: its whitespace-separated words, at least one.
 * A rough stand-in for a tokenizer (real models count more tokens than words), not comparable with
 * a real model's counts.
 */
export function estimateTokens(text: string): number {
  let words = 0;
  for (const word of text.split(/\s+/u)) if (word) words++;
  return Math.max(1, words);
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): uniform floats in [0, 1). */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
