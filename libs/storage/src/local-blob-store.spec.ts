import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './local-blob-store';

describe('LocalBlobStore', () => {
  let root: string;
  let store: LocalBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'trove-blobs-'));
    store = new LocalBlobStore(root);
  });

  it('round-trips bytes and JSON and leaves no temp files', async () => {
    await store.put('docs/a/original', Buffer.from([0, 1, 2, 255]));
    await store.putJson('docs/a/parsed.json', { title: 'Ü' });
    expect([...(await store.get('docs/a/original'))]).toEqual([0, 1, 2, 255]);
    expect(await store.getJson('docs/a/parsed.json')).toEqual({ title: 'Ü' });
    expect((await readdir(join(root, 'docs/a'))).sort()).toEqual(['original', 'parsed.json']);
  });

  it('deletes by prefix', async () => {
    await store.put('docs/a/x', 'x');
    await store.put('docs/b/x', 'x');
    await store.deletePrefix('docs/a/');
    expect(await store.exists('docs/a/x')).toBe(false);
    expect(await store.exists('docs/b/x')).toBe(true);
  });

  it('refuses keys that escape the root', async () => {
    await expect(store.put('../evil', 'x')).rejects.toThrow(/invalid blob key/);
    await expect(store.get('docs/../../etc/passwd')).rejects.toThrow(/invalid blob key/);
    await expect(store.get('/etc/passwd')).rejects.toThrow(/invalid blob key/);
  });
});
