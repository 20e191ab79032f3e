import { createHash } from 'node:crypto';
import type { EmbeddingProvider } from '@trove/domain';
import { seededRandom } from '@trove/evaluation';
import type { StoredChunk } from '@trove/search';

/**
 * Synthetic chunks for search benchmarks at scale: text made of a real corpus's words, and unit
 * vectors scattered around cluster centres, so that BM25 meets realistic postings (a Zipfian word
 * distribution, topical co-occurrence) and HNSW a corpus with neighbourhoods instead of uniform
 * noise, where every vector is about as far from a query as every other. No model is needed.
 *
 * Everything derives from a seed and an item's number: chunk `i` is the same whatever else is
 * generated, so a 100k index is the first tenth of the 1M one and a float copy holds exactly the
 * int8 index's chunks.
 */

/** A 32-bit seed for one item of one stream (`chunk`, `query`, `centre`), from the run's seed. */
function itemSeed(seed: number, stream: string, index: number): number {
  return createHash('sha256').update(`${seed}:${stream}:${index}`).digest().readUInt32LE(0);
}

/** `dimensions` standard normal draws (Box–Muller). */
function gaussians(random: () => number, dimensions: number): number[] {
  const out: number[] = [];
  while (out.length < dimensions) {
    const u = 1 - random(); // (0, 1]: log(0) never happens
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    out.push(r * Math.cos(2 * Math.PI * v), r * Math.sin(2 * Math.PI * v));
  }
  return out.slice(0, dimensions);
}

/**
 * `vector` scaled to length 1, each component rounded to 7 decimal places (about 6 significant
 * digits at 384 dimensions), so its JSON is about as long as a float32 model's.
 */
function unit(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return vector.map((x) => Math.round((x / norm) * 1e7) / 1e7);
}

/** Lower-case words of a text: letters and digits, at least two characters. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

/** A corpus's words with their frequencies, and its documents as topics (their own words, in order). */
export class Vocabulary {
  private readonly words: string[];
  /** Cumulative counts, for drawing a word by its corpus frequency. */
  private readonly cumulative: number[];
  readonly topics: { title: string; words: string[] }[];

  constructor(documents: readonly { title: string; text: string }[]) {
    const counts = new Map<string, number>();
    this.topics = documents
      .map((d) => ({ title: d.title, words: words(`${d.title} ${d.text}`) }))
      .filter((t) => t.words.length > 0);
    if (this.topics.length === 0) throw new Error('the vocabulary needs at least one document with words');
    for (const topic of this.topics) for (const w of topic.words) counts.set(w, (counts.get(w) ?? 0) + 1);
    this.words = [...counts.keys()];
    let total = 0;
    this.cumulative = this.words.map((w) => (total += counts.get(w)!));
  }

  get size(): number {
    return this.words.length;
  }

  /** A word drawn by its frequency in the corpus. */
  draw(random: () => number): string {
    const target = random() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return this.words[lo];
  }
}

export interface SyntheticOptions {
  seed: number;
  dimensions: number;
  /** Cluster centres the vectors are scattered around; each cluster has one topic of the vocabulary. */
  clusters: number;
  /**
   * Spread of a vector around its centre: the noise's length relative to the centre's (1 gives a
   * cosine of about 0.5 between two vectors of one cluster, and about 0 across clusters).
   */
  spread: number;
  /** Words per chunk text, drawn uniformly between these (inclusive). */
  minWords: number;
  maxWords: number;
  /** Chunks per synthetic document (ids and positions only). */
  chunksPerDocument: number;
  /** The one project every chunk belongs to: both legs filter on it, as production searches do. */
  projectId: string;
}

export const SYNTHETIC_DEFAULTS: SyntheticOptions = {
  seed: 42,
  dimensions: 384,
  clusters: 1_000,
  spread: 1,
  minWords: 80,
  maxWords: 240,
  chunksPerDocument: 4,
  projectId: '00000000-0000-4000-8000-000000000001',
};

/** Synthetic chunks and query vectors under one seed (see the file comment). */
export class SyntheticCorpus {
  readonly options: SyntheticOptions;
  private readonly centres: number[][];

  constructor(
    private readonly vocabulary: Vocabulary,
    options: Partial<SyntheticOptions> = {},
  ) {
    this.options = { ...SYNTHETIC_DEFAULTS, ...options };
    const { seed, clusters, dimensions, minWords, maxWords } = this.options;
    if (!(clusters >= 1 && minWords >= 1 && maxWords >= minWords && dimensions >= 1)) {
      throw new Error(
        'synthetic corpus: clusters, dimensions and words must be positive, minWords ≤ maxWords',
      );
    }
    this.centres = Array.from({ length: clusters }, (_, c) =>
      unit(gaussians(seededRandom(itemSeed(seed, 'centre', c)), dimensions)),
    );
  }

  /** A unit vector near cluster `cluster`'s centre, drawn from `random`. */
  private near(cluster: number, random: () => number): number[] {
    const { dimensions, spread } = this.options;
    const centre = this.centres[cluster];
    // Noise of expected length `spread`: each component ~ N(0, spread² / dimensions).
    const scale = spread / Math.sqrt(dimensions);
    return unit(gaussians(random, dimensions).map((g, d) => centre[d] + g * scale));
  }

  /** Chunk `i`: its cluster's topic words mixed half and half with words drawn by corpus frequency. */
  chunk(i: number, indexedAt: string): StoredChunk {
    const { seed, clusters, minWords, maxWords, chunksPerDocument, projectId } = this.options;
    const random = seededRandom(itemSeed(seed, 'chunk', i));
    const cluster = Math.floor(random() * clusters);
    const topic = this.vocabulary.topics[cluster % this.vocabulary.topics.length];
    const length = minWords + Math.floor(random() * (maxWords - minWords + 1));
    const text = Array.from({ length }, () =>
      random() < 0.5 ? topic.words[Math.floor(random() * topic.words.length)] : this.vocabulary.draw(random),
    ).join(' ');
    const documentNumber = Math.floor(i / chunksPerDocument);
    const documentId = createHash('sha256')
      .update(`${seed}:document:${documentNumber}`)
      .digest('hex')
      .slice(0, 32);
    const contentHash = createHash('sha256').update(text).digest('hex');
    const position = i % chunksPerDocument;
    return {
      chunkId: `${documentId}-${position}-${contentHash.slice(0, 12)}`,
      projectId,
      documentId,
      position,
      title: topic.title,
      headingPath: [],
      text,
      language: 'en',
      tokenCount: length,
      hasCode: false,
      contentHash,
      embeddingModel: 'synthetic',
      embedding: this.near(cluster, random),
      indexedAt,
    };
  }

  /** Query `j`'s vector: near a cluster centre, as the chunks are (its own stream, so no chunk equals it). */
  queryVector(j: number): number[] {
    const random = seededRandom(itemSeed(this.options.seed, 'query', j));
    return this.near(Math.floor(random() * this.options.clusters), random);
  }
}

/**
 * The query "embedder" of a synthetic benchmark: it answers at once with the synthetic vector
 * registered for each query text, so a search's time is Elasticsearch's and Trove's, not a model's.
 */
export class SyntheticQueryEmbedder implements EmbeddingProvider {
  readonly modelId = 'synthetic';

  constructor(
    private readonly vectors: ReadonlyMap<string, number[]>,
    readonly dimensions: number,
  ) {}

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => {
      const vector = this.vectors.get(text);
      if (!vector) throw new Error(`no synthetic vector for the query ${JSON.stringify(text)}`);
      return vector;
    });
  }

  /** Always up: there is no server. */
  ping(): Promise<void> {
    return Promise.resolve();
  }
}
