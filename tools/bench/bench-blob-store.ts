/**
 * Blob store throughput: the same streams written (putStream, as uploads are) and read back
 * (getStream, as original-link downloads are) through the local folder and through an S3 bucket
 * of the local SeaweedFS (loopback), interleaved in one run so both see the same machine load.
 * Run: npm run bench:blob-store (BENCH_BLOB_MB, BENCH_BLOB_ROUNDS to change the sizes).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from '@trove/domain';
import { LocalBlobStore, S3BlobStore } from '@trove/storage';
import { createBucket, deleteBucket, ensureSeaweedfs, s3Client, uniqueName } from '@trove/test-support';
import { sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

const MiB = 1024 * 1024;
/** A knob's value, or its default from the command's entry in tools/support/benchmark-commands.ts. */
const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:blob-store', name));
const SIZE_MB = size('BENCH_BLOB_MB');
const ROUNDS = size('BENCH_BLOB_ROUNDS');
const PART_MB = 8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `size` bytes in 1 MiB chunks, made as they are read (nothing held whole). */
function source(size: number, seed: number): Readable {
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < chunk.length; i += 1) chunk[i] = (i * 31 + seed) & 0xff;
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const part = chunk.subarray(0, Math.min(left, chunk.length));
      left -= part.length;
      this.push(part);
    },
  });
}

async function drain(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const part of stream) {
    bytes += (part as Buffer).length;
    hash.update(part as Buffer);
  }
  return { bytes, sha256: hash.digest('hex') };
}

async function round(store: BlobStore, key: string, seed: number): Promise<{ write: number; read: number }> {
  const size = SIZE_MB * MiB;
  let started = performance.now();
  const stored = await store.putStream(key, source(size, seed));
  const write = performance.now() - started;
  started = performance.now();
  const read = await drain(store.getStream(key));
  const readMs = performance.now() - started;
  if (read.bytes !== size || read.sha256 !== stored.sha256)
    throw new Error(`${key}: the copy read back differs`);
  await store.deletePrefix(key);
  return { write, read: readMs };
}

async function main() {
  await ensureSeaweedfs();
  const bucket = uniqueName('bench-blobs');
  await createBucket(bucket);
  const folder = mkdtempSync(join(tmpdir(), 'trove-bench-blobs-'));
  const client = s3Client();
  const stores: [string, BlobStore][] = [
    ['local folder', new LocalBlobStore(folder)],
    [
      `S3 (SeaweedFS, loopback, ${PART_MB} MiB parts)`,
      new S3BlobStore(client, { bucket, partSizeBytes: PART_MB * MiB }),
    ],
  ];
  const times = new Map(stores.map(([name]) => [name, { write: [] as number[], read: [] as number[] }]));
  const load = loadavg()[0];
  try {
    // One warm-up each, then rounds interleaved: the two stores share the machine's state.
    for (const [, store] of stores) await round(store, 'warm/up', 0);
    for (let i = 1; i <= ROUNDS; i += 1) {
      for (const [name, store] of stores) {
        const { write, read } = await round(store, `originals/bench/${i}`, i);
        times.get(name)!.write.push(write);
        times.get(name)!.read.push(read);
      }
    }
  } finally {
    client.destroy();
    rmSync(folder, { recursive: true, force: true });
    await deleteBucket(bucket);
  }
  const rate = (ms: number) => `${((SIZE_MB / ms) * 1000).toFixed(0)} MB/s`;
  const rows = [...times].map(
    ([name, t]) => `| ${name} | ${rate(median(t.write))} | ${rate(median(t.read))} |`,
  );
  const section = [
    '## Blob store: local folder vs S3 (SeaweedFS)',
    '',
    `Each round streams ${SIZE_MB} MiB into the store (putStream: counted, hashed with SHA-256, written;`,
    `S3: a multipart upload with a SHA-256 checksum per part) and reads it back (getStream, hashed and`,
    `compared). Median of ${ROUNDS} rounds per store, interleaved; 1-minute load average at the start`,
    `${load.toFixed(1)} (the machine is shared). SeaweedFS runs on the same machine (loopback), so the`,
    'S3 figures are its CPU cost plus the protocol, not a network.',
    '',
    '| store | write (putStream) | read (getStream) |',
    '| ----- | ----------------- | ---------------- |',
    ...rows,
  ].join('\n');
  console.log(section);
  if (process.env.BENCH_NO_WRITE) return;
  // Sizes given are in the command, so a smaller run says "(sizes changed" and never passes for the full one.
  const sizes = ['BENCH_BLOB_MB', 'BENCH_BLOB_ROUNDS'].filter((k) => process.env[k]);
  writeBenchmarkSections(
    [...sizes.map((k) => `${k}=${process.env[k]}`), 'npm run bench:blob-store'].join(' '),
    section,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
