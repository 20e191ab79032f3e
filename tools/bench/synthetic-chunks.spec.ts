import { describe, expect, it } from 'vitest';
import { isChunkId } from '@trove/domain';
import { seededRandom } from '@trove/evaluation';
import { SyntheticCorpus, SyntheticQueryEmbedder, Vocabulary, words } from './synthetic-chunks';

const DOCUMENTS = [
  { title: 'Cell biology', text: 'Mitochondria produce energy in the cell; the cell divides by mitosis.' },
  { title: 'Cardiology', text: 'The heart pumps blood; blood pressure rises with age and salt.' },
  { title: 'Genetics', text: 'Genes encode proteins; a mutation in a gene may change the protein.' },
];
const AT = '2026-01-01T00:00:00.000Z';
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const corpus = (options = {}) =>
  new SyntheticCorpus(new Vocabulary(DOCUMENTS), { clusters: 3, dimensions: 64, ...options });

describe('Vocabulary', () => {
  it('draws only corpus words, the frequent ones more often', () => {
    const vocabulary = new Vocabulary(DOCUMENTS);
    const known = new Set(DOCUMENTS.flatMap((d) => words(`${d.title} ${d.text}`)));
    const random = seededRandom(1);
    const drawn = Array.from({ length: 5000 }, () => vocabulary.draw(random));
    expect(drawn.every((w) => known.has(w))).toBe(true);
    const count = (w: string) => drawn.filter((d) => d === w).length;
    // "the" occurs 4 times in the corpus, "salt" once.
    expect(count('the')).toBeGreaterThan(2 * count('salt'));
  });

  it('refuses a corpus without words', () => {
    expect(() => new Vocabulary([{ title: '', text: '!' }])).toThrow(/at least one document/);
  });
});

describe('SyntheticCorpus', () => {
  it('gives chunk i the same content whatever else was generated, and another seed other content', () => {
    const a = corpus();
    const b = corpus();
    b.chunk(5, AT);
    expect(a.chunk(3, AT)).toEqual(b.chunk(3, AT));
    expect(a.queryVector(2)).toEqual(b.queryVector(2));
    expect(corpus({ seed: 43 }).chunk(3, AT)).not.toEqual(a.chunk(3, AT));
  });

  it('makes well-formed chunks: valid ids, the project, words of the corpus, unit vectors', () => {
    const c = corpus({ minWords: 10, maxWords: 20, chunksPerDocument: 4 });
    const known = new Set(DOCUMENTS.flatMap((d) => words(`${d.title} ${d.text}`)));
    for (let i = 0; i < 20; i++) {
      const chunk = c.chunk(i, AT);
      expect(isChunkId(chunk.chunkId)).toBe(true);
      expect(chunk.projectId).toBe(c.options.projectId);
      expect(chunk.position).toBe(i % 4);
      const w = chunk.text.split(' ');
      expect(w.length).toBeGreaterThanOrEqual(10);
      expect(w.length).toBeLessThanOrEqual(20);
      expect(w.every((x) => known.has(x))).toBe(true);
      expect(chunk.embedding).toHaveLength(64);
      expect(Math.sqrt(dot(chunk.embedding!, chunk.embedding!))).toBeCloseTo(1, 5);
    }
    // Four chunks per document share its id.
    expect(c.chunk(4, AT).documentId).toBe(c.chunk(7, AT).documentId);
    expect(c.chunk(3, AT).documentId).not.toBe(c.chunk(4, AT).documentId);
  });

  it('clusters the vectors: a cluster holds close neighbours, clusters are unrelated', () => {
    const vectors = (clusters: number, n: number) => {
      const c = new SyntheticCorpus(new Vocabulary(DOCUMENTS), { clusters, dimensions: 384 });
      return Array.from({ length: n }, (_, i) => c.chunk(i, AT).embedding!);
    };
    const meanCosine = (vs: number[][]) => {
      let sum = 0;
      let pairs = 0;
      for (let i = 0; i < vs.length; i++)
        for (let j = i + 1; j < vs.length; j++, pairs++) sum += dot(vs[i], vs[j]);
      return sum / pairs;
    };
    // One cluster: spread 1 puts any two vectors at a cosine of about 1 / (1 + 1²) = 0.5.
    expect(meanCosine(vectors(1, 60))).toBeCloseTo(0.5, 1);
    // Ten thousand clusters: almost every pair is across clusters, unrelated (cosine about 0).
    expect(Math.abs(meanCosine(vectors(10_000, 60)))).toBeLessThan(0.05);
    // Fifty clusters, 400 chunks: each vector has a neighbour far closer than a stranger, so the
    // kNN is not degenerate.
    const vs = vectors(50, 400);
    for (const v of vs.slice(0, 20)) {
      const nearest = Math.max(...vs.filter((o) => o !== v).map((o) => dot(o, v)));
      expect(nearest).toBeGreaterThan(0.35);
    }
  });
});

describe('SyntheticQueryEmbedder', () => {
  it('answers with the registered vectors and refuses a query it does not know', async () => {
    const embedder = new SyntheticQueryEmbedder(new Map([['heart', [1, 0]]]), 2);
    await expect(embedder.embed(['heart', 'heart'])).resolves.toEqual([
      [1, 0],
      [1, 0],
    ]);
    await expect(embedder.embed(['lung'])).rejects.toThrow(/no synthetic vector for the query "lung"/);
  });
});
