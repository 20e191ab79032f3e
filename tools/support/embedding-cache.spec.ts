import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '@trove/domain';
import { CachedPassageEmbedder, cacheBase } from './embedding-cache';

/** Vectors from the text's characters; `drift` stands for another model behind the same name. */
class FakeEmbedder implements EmbeddingProvider {
  readonly dimensions = 3;
  readonly modelId = 'fake-e5';
  drift = 0;
  readonly embedded: string[] = [];

  embed(texts: string[]): Promise<number[][]> {
    this.embedded.push(...texts);
    return Promise.resolve(texts.map((t) => [t.length, t.charCodeAt(0), 1 + 10 * this.drift]));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}

const file = () => join(mkdtempSync(join(tmpdir(), 'trove-vectors-')), 'slice.json');

describe('CachedPassageEmbedder', () => {
  it('embeds a passage once across runs, and answers with what the embedder gave', async () => {
    const inner = new FakeEmbedder();
    const path = file();
    const first = await CachedPassageEmbedder.open(inner, path);
    const vectors = await first.embed(['alpha', 'beta'], 'passage');
    first.save();
    expect(first.counts).toEqual({ cached: 0, embedded: 2 });

    inner.embedded.length = 0;
    const second = await CachedPassageEmbedder.open(inner, path);
    expect(await second.embed(['alpha', 'beta', 'gamma'], 'passage')).toEqual([
      ...vectors,
      [5, 'g'.charCodeAt(0), 1],
    ]);
    // The probe (the first passage of the run that wrote the file) and the new passage only.
    expect(inner.embedded).toEqual(['alpha', 'gamma']);
    expect(second.counts).toEqual({ cached: 2, embedded: 1 });
  });

  it('never caches queries', async () => {
    const inner = new FakeEmbedder();
    const cache = await CachedPassageEmbedder.open(inner, file());
    await cache.embed(['q'], 'query');
    await cache.embed(['q'], 'query');
    expect(inner.embedded).toEqual(['q', 'q']);
  });

  it('voids the whole file when the probe no longer embeds to its stored vector', async () => {
    const inner = new FakeEmbedder();
    const path = file();
    const first = await CachedPassageEmbedder.open(inner, path);
    await first.embed(['alpha', 'beta'], 'passage');
    first.save();

    inner.drift = 1;
    inner.embedded.length = 0;
    const drifted = await CachedPassageEmbedder.open(inner, path);
    expect(await drifted.embed(['beta'], 'passage')).toEqual([[4, 'b'.charCodeAt(0), 11]]);
    expect(inner.embedded).toEqual(['alpha', 'beta']);
    drifted.save();
    // The old vectors are not carried over into the rewritten file either.
    const stored = JSON.parse(readFileSync(path, 'utf8')) as { vectors: object };
    expect(Object.keys(stored.vectors)).toHaveLength(1);
  });

  it('keeps what other runs stored lately, and drops what no run used for 30 days', async () => {
    const inner = new FakeEmbedder();
    const path = file();
    const a = await CachedPassageEmbedder.open(inner, path);
    await a.embed(['alpha', 'old'], 'passage');
    a.save();
    const stored = JSON.parse(readFileSync(path, 'utf8')) as {
      vectors: Record<string, { used: string }>;
    };
    const [, oldKey] = Object.keys(stored.vectors);
    stored.vectors[oldKey].used = '2000-01-01';
    writeFileSync(path, JSON.stringify(stored));

    // Another branch's chunking: other passages, the file's entries kept beside its own.
    const b = await CachedPassageEmbedder.open(inner, path);
    await b.embed(['alpha', 'beta'], 'passage');
    b.save();
    const after = JSON.parse(readFileSync(path, 'utf8')) as { vectors: object };
    expect(Object.keys(after.vectors)).toHaveLength(2);
    expect(Object.keys(after.vectors)).not.toContain(oldKey);
  });

  it('starts empty when asked to, or when the file was written for another model', async () => {
    const inner = new FakeEmbedder();
    const path = file();
    const warm = await CachedPassageEmbedder.open(inner, path);
    await warm.embed(['alpha'], 'passage');
    warm.save();

    inner.embedded.length = 0;
    const cold = CachedPassageEmbedder.empty(inner, path);
    await cold.embed(['alpha'], 'passage');
    expect(inner.embedded).toEqual(['alpha']);

    const other = Object.assign(new FakeEmbedder(), { modelId: 'other-model' });
    const fresh = await CachedPassageEmbedder.open(other, path);
    await fresh.embed(['alpha'], 'passage');
    expect(other.embedded).toEqual(['alpha']);
  });
});

describe('CachedPassageEmbedder seeds (a new machine starts from committed vectors)', () => {
  it('fills a missing file from the seed, which holds only the passages its run used', async () => {
    const inner = new FakeEmbedder();
    const cacheFile = file();
    const seeding = await CachedPassageEmbedder.open(inner, cacheFile);
    await seeding.embed(['alpha', 'beta'], 'passage');
    seeding.save();
    // A later run of another chunking: the seed takes its passages only, not the file's others.
    const seeder = await CachedPassageEmbedder.open(inner, cacheFile);
    await seeder.embed(['alpha', 'gamma'], 'passage');
    const seed = join(mkdtempSync(join(tmpdir(), 'trove-seed-')), 'slice.json.gz');
    seeder.writeSeed(seed);

    inner.embedded.length = 0;
    const path = file();
    const fresh = await CachedPassageEmbedder.open(inner, path, seed);
    expect(fresh.fromSeed).toBe(true);
    expect(await fresh.embed(['alpha', 'gamma', 'beta'], 'passage')).toHaveLength(3);
    // The probe, then 'beta', which the seed does not hold.
    expect(inner.embedded).toEqual(['alpha', 'beta']);
    expect(fresh.counts).toEqual({ cached: 2, embedded: 1 });
    fresh.save();

    // The file now exists: the seed is not read again.
    const again = await CachedPassageEmbedder.open(inner, path, seed);
    expect(again.fromSeed).toBe(false);
  });

  it('ignores a seed whose probe no longer embeds to its stored vector', async () => {
    const inner = new FakeEmbedder();
    const seeder = await CachedPassageEmbedder.open(inner, file());
    await seeder.embed(['alpha', 'beta'], 'passage');
    const seed = join(mkdtempSync(join(tmpdir(), 'trove-seed-')), 'slice.json.gz');
    seeder.writeSeed(seed);

    inner.drift = 1;
    inner.embedded.length = 0;
    const drifted = await CachedPassageEmbedder.open(inner, file(), seed);
    await drifted.embed(['alpha', 'beta'], 'passage');
    expect(inner.embedded).toEqual(['alpha', 'alpha', 'beta']);
    expect(drifted.counts).toEqual({ cached: 0, embedded: 2 });
  });
});

describe('cacheBase (where the gates keep their vectors)', () => {
  it('lies beside the installed programs: /var/cache/trove for root, the user cache for others', () => {
    expect(cacheBase({}, 0, '/root')).toBe('/var/cache/trove');
    expect(cacheBase({}, 1000, '/home/ann')).toBe('/home/ann/.cache/trove');
    expect(cacheBase({ XDG_CACHE_HOME: '/x' }, 1000, '/home/ann')).toBe('/x/trove');
  });

  it('follows TROVE_INSTALL_DIR, and TROVE_CACHE_DIR before it', () => {
    expect(cacheBase({ TROVE_INSTALL_DIR: '/opt/t' }, 0, '/root')).toBe('/opt/t');
    expect(cacheBase({ TROVE_INSTALL_DIR: '/opt/t', TROVE_CACHE_DIR: '/c' }, 0, '/root')).toBe('/c');
  });
});
