import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobLocation, BackupErrorCode, type InstallConfig } from '@trove/backup';
import { loadConfig, storageSchema } from '@trove/config';
import { z } from 'zod';
import { BUILD_WAIT_MS } from '../../support/installed';
import { createBucket, deleteBucket, ensureSeaweedfs, s3Env } from '../../support/object-store';
import { uniqueName } from '../../support/services';

/**
 * What `trove backup` and `trove restore` do with the blobs of an install that keeps them in a
 * bucket: every object out to files with its sha256, and back in, each checked before it is kept.
 */
describe('backup and restore of blobs in a bucket', () => {
  const bucket = uniqueName('backup');
  let config: InstallConfig;

  beforeAll(async () => {
    await ensureSeaweedfs();
    await createBucket(bucket);
    const { storage } = loadConfig(z.object({ storage: storageSchema }), {
      ...s3Env(bucket),
      TROVE_S3_PREFIX: 'install/',
    });
    config = { storage } as InstallConfig;
  }, BUILD_WAIT_MS);
  afterAll(() => deleteBucket(bucket));

  it('copies every object out and back in, and refuses a changed file', async () => {
    const location = blobLocation(config);
    expect(location.name).toBe(`s3://${bucket}/install/`);
    const { createS3BlobStore } = await import('@trove/storage');
    const store = createS3BlobStore(config.storage);
    await store.put('originals/d1/aaaa', 'first original');
    await store.put('sources/s1/archive-bbbb.zip', Buffer.alloc(70_000, 7));
    expect(await location.count()).toBe(2);

    const dir = mkdtempSync(join(tmpdir(), 'trove-s3-backup-'));
    const entries = await location.copyOut(dir, () => undefined);
    expect(entries.map((e) => [e.path, e.bytes])).toEqual([
      ['originals/d1/aaaa', 14],
      ['sources/s1/archive-bbbb.zip', 70_000],
    ]);

    await location.clear();
    expect(await location.count()).toBe(0);
    expect(await location.copyIn(dir, entries, () => undefined)).toBe(70_014);
    expect((await store.get('originals/d1/aaaa')).toString()).toBe('first original');

    await location.clear();
    writeFileSync(join(dir, 'originals/d1/aaaa'), 'tampered original');
    await expect(location.copyIn(dir, entries, () => undefined)).rejects.toMatchObject({
      code: BackupErrorCode.Corrupt,
      message: expect.stringMatching(/originals\/d1\/aaaa does not match its checksum/),
    });
    expect(await store.exists('originals/d1/aaaa')).toBe(false);
  });
});
