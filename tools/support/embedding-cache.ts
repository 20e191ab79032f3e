/**
 * Passage vectors kept on disk, keyed by the hash of the model and the text: the retrieval gate
 * embeds the same slice chunks on every run, and a passage's vector depends on nothing else. A
 * changed parser or chunker gives new texts (new keys), and the file holds one passage that is
 * embedded again whenever the file is opened: an embedder that now answers differently (another
 * model or version behind the same name) voids the whole file. A cached vector is then the one the
 * embedder would return; only the embedding time is saved.
 *
 * A seed (the same format, gzipped, committed beside the gate) fills a missing file: a new machine
 * then embeds only the probe and the passages the seed lacks, instead of every passage (about 17
 * minutes of CPU for the gate's slices on 2 cores). The probe checks a seed as it checks a file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';

/**
 * The probe's fresh vector must match its stored one this closely: the same model gives the same
 * vector up to float32 rounding (cosine 1 to 6 digits); another model or quantization does not.
 */
const PROBE_MIN_COSINE = 0.99999;

/**
 * Where test caches live: TROVE_CACHE_DIR, else beside the installed programs (TROVE_INSTALL_DIR,
 * else as infra/local/env.sh chooses it: `/var/cache/trove` for root, `$XDG_CACHE_HOME/trove` or
 * `~/.cache/trove` for others), so a fresh clone on the same machine (CI) starts warm, and a machine
 * that keeps its programs keeps these too. Entries are keyed by content and checked on opening, so
 * clones and branches can share them.
 */
export function testCacheDir(...parts: string[]): string {
  return join(cacheBase(process.env, process.getuid?.() ?? -1, homedir()), ...parts);
}

export function cacheBase(env: NodeJS.ProcessEnv, uid: number, home: string): string {
  if (env.TROVE_CACHE_DIR) return env.TROVE_CACHE_DIR;
  if (env.TROVE_INSTALL_DIR) return env.TROVE_INSTALL_DIR;
  if (uid === 0) return '/var/cache/trove';
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'trove');
}

/** Entries no run has used for this many days are dropped when the file is written. */
const KEEP_DAYS = 30;
const FORMAT = 2;

interface CacheFile {
  format: typeof FORMAT;
  model: string;
  dimensions: number;
  /** A passage embedded again on opening, to check the embedder still gives its stored vector. */
  probe: string;
  /**
   * Key → the vector's float32 bytes, base64 (Elasticsearch keeps float32 too), and the day a run
   * last used it.
   */
  vectors: Record<string, { vector: string; used: string }>;
}

/** The file's contents (gunzipped when its name ends in .gz) when it was written for this model, else undefined. */
function readCacheFile(file: string, inner: EmbeddingProvider): CacheFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const bytes = readFileSync(file);
    const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    const stored = JSON.parse(text) as CacheFile;
    const fits =
      stored.format === FORMAT && stored.model === inner.modelId && stored.dimensions === inner.dimensions;
    return fits ? stored : undefined;
  } catch {
    return undefined; // a file from an older format or a broken write: rebuilt
  }
}

const toVector = (bytes: string) => {
  const data = Buffer.from(bytes, 'base64');
  return new Float32Array(data.buffer, data.byteOffset, data.byteLength / 4);
};
const toBytes = (vector: Float32Array) =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
const day = (daysAgo = 0) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

export class CachedPassageEmbedder implements EmbeddingProvider {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly used = new Set<string>();
  /** Passages answered from the file, and sent to the embedder. */
  readonly counts = { cached: 0, embedded: 0 };

  private probe?: string;
  /** The file's probe no longer matched the embedder: nothing of it may be kept. */
  private voided = false;
  /** The vectors were read from the seed (the file was missing or of another model). */
  fromSeed = false;

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
   * model, or its probe passage no longer embeds to its stored vector. A missing file (or one of
   * another model) is filled from `seed` when given and it fits.
   */
  static async open(inner: EmbeddingProvider, file: string, seed?: string): Promise<CachedPassageEmbedder> {
    const cache = new CachedPassageEmbedder(inner, file);
    const own = readCacheFile(file, inner);
    const stored = own ?? (seed ? readCacheFile(seed, inner) : undefined);
    cache.fromSeed = !own && stored !== undefined;
    const probe = stored?.vectors[cache.key(stored.probe)];
    if (!stored || !probe) return cache;
    const [now] = await inner.embed([stored.probe], 'passage');
    if (cosine(Float32Array.from(now), toVector(probe.vector)) < PROBE_MIN_COSINE) {
      cache.voided = true;
      return cache;
    }
    for (const [key, entry] of Object.entries(stored.vectors)) cache.vectors.set(key, toVector(entry.vector));
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

  /**
   * Writes the vectors this run used, stamped with today, beside the entries the file holds now
   * (another run, another branch's chunking) that some run used in the last KEEP_DAYS days.
   */
  save(): void {
    if (!this.probe) return;
    const vectors: CacheFile['vectors'] = {};
    const onDisk = this.voided ? undefined : readCacheFile(this.file, this.inner);
    const since = day(KEEP_DAYS);
    for (const [key, entry] of Object.entries(onDisk?.vectors ?? {}))
      if (entry.used >= since) vectors[key] = entry;
    for (const key of this.used) vectors[key] = { vector: toBytes(this.vectors.get(key)!), used: day() };
    const stored: CacheFile = {
      format: FORMAT,
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

  /**
   * Writes the vectors this run used, and only those, gzipped to `file`: the seed of a new
   * machine's cache (`npm run gate:seed`).
   */
  writeSeed(file: string): void {
    if (!this.probe) throw new Error('no passage was embedded: nothing to seed');
    const vectors: CacheFile['vectors'] = {};
    for (const key of [...this.used].sort())
      vectors[key] = { vector: toBytes(this.vectors.get(key)!), used: day() };
    const seed: CacheFile = {
      format: FORMAT,
      model: this.modelId,
      dimensions: this.dimensions,
      probe: this.probe,
      vectors,
    };
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, gzipSync(JSON.stringify(seed), { level: 9 }));
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
