/**
 * Passage vectors kept on disk, keyed by the hash of the model and the text: the retrieval gate
 * embeds the same slice chunks on every run, and a passage's vector depends on nothing else. A
 * changed parser or chunker gives new texts (new keys), and the file holds one passage that is
 * embedded again whenever the file is opened: an embedder that now answers differently (another
 * model or version behind the same name) voids the whole file. A cached vector is then the one the
 * embedder would return; only the embedding time is saved.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';

/**
 * The probe's fresh vector must match its stored one this closely: the same model gives the same
 * vector up to float32 rounding (cosine 1 to 6 digits); another model or quantization does not.
 */
const PROBE_MIN_COSINE = 0.99999;

interface CacheFile {
  model: string;
  dimensions: number;
  /** A passage embedded again on opening, to check the embedder still gives its stored vector. */
  probe: string;
  /** Key → the vector's float32 bytes, base64 (Elasticsearch keeps float32 too). */
  vectors: Record<string, string>;
}

export class CachedPassageEmbedder implements EmbeddingProvider {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly used = new Set<string>();
  /** Passages answered from the file, and sent to the embedder. */
  readonly counts = { cached: 0, embedded: 0 };

  private probe?: string;

  private constructor(
    private readonly inner: EmbeddingProvider,
    private readonly file: string,
  ) {}

  /** A cache over `inner` that starts empty whatever `file` holds (every passage is embedded). */
  static empty(inner: EmbeddingProvider, file: string): CachedPassageEmbedder {
    return new CachedPassageEmbedder(inner, file);
  }

  /**
   * The cache in `file` over `inner`: empty when the file is missing, was written for another
   * model, or its probe passage no longer embeds to its stored vector.
   */
  static async open(inner: EmbeddingProvider, file: string): Promise<CachedPassageEmbedder> {
    const cache = new CachedPassageEmbedder(inner, file);
    if (!existsSync(file)) return cache;
    const stored = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (stored.model !== inner.modelId || stored.dimensions !== inner.dimensions) return cache;
    const vectors = new Map(
      Object.entries(stored.vectors).map(([key, bytes]) => {
        const data = Buffer.from(bytes, 'base64');
        return [key, new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4)] as const;
      }),
    );
    const kept = vectors.get(cache.key(stored.probe));
    if (!kept) return cache;
    const [now] = await inner.embed([stored.probe], 'passage');
    if (cosine(Float32Array.from(now), kept) < PROBE_MIN_COSINE) return cache;
    for (const [key, vector] of vectors) cache.vectors.set(key, vector);
    return cache;
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  get modelId(): string {
    return this.inner.modelId;
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  async embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]> {
    if (purpose !== 'passage') return this.inner.embed(texts, purpose, options);
    const keys = texts.map((text) => this.key(text));
    const missing = keys.flatMap((key, i) => (this.vectors.has(key) ? [] : [i]));
    if (missing.length > 0) {
      const fresh = await this.inner.embed(
        missing.map((i) => texts[i]),
        purpose,
        options,
      );
      missing.forEach((i, j) => this.vectors.set(keys[i], Float32Array.from(fresh[j])));
    }
    this.counts.embedded += missing.length;
    this.counts.cached += texts.length - missing.length;
    keys.forEach((key) => this.used.add(key));
    this.probe ??= texts[0];
    return keys.map((key) => Array.from(this.vectors.get(key)!));
  }

  /** Writes the vectors used since construction (only those: texts no longer chunked drop out). */
  save(): void {
    if (!this.probe) return;
    const vectors: Record<string, string> = {};
    for (const key of this.used) {
      const vector = this.vectors.get(key)!;
      vectors[key] = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
    }
    const stored: CacheFile = {
      model: this.modelId,
      dimensions: this.dimensions,
      probe: this.probe,
      vectors,
    };
    mkdirSync(dirname(this.file), { recursive: true });
    // Written aside and renamed: a run stopped half-way never leaves a truncated file.
    const partial = `${this.file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(stored));
    renameSync(partial, this.file);
  }

  private key(text: string): string {
    return createHash('sha256').update(this.inner.modelId).update('\0').update(text).digest('base64url');
  }
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}
