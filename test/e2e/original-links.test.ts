import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

const MiB = 1024 * 1024;
const PER_LINK = 10;
const PER_ADDRESS = 12;
const stack = new TroveStack({
  TROVE_MAX_UPLOAD_BYTES: String(64 * MiB),
  TROVE_ORIGINAL_DOWNLOADS_PER_LINK: String(PER_LINK),
  TROVE_ORIGINAL_DOWNLOADS_PER_ADDRESS: String(PER_ADDRESS),
});

/** About 48 MB of numbered lines: every range of it is different from its neighbours. */
const LARGE = Buffer.from(
  Array.from(
    { length: 1_400_000 },
    (_, i) => `line ${String(i).padStart(7, '0')} of the large original\n`,
  ).join(''),
);
const LARGE_SHA = createHash('sha256').update(LARGE).digest('hex');

let projectId: string;
let largeId: string;
let otherLargeId: string;

beforeAll(async () => {
  await stack.start();
  // These stories read originals only: without a worker nothing ingests the 48 MB texts (which
  // would keep the shared embedder busy for long), and the originals are stored at upload.
  await stack.killWorker();
  projectId = await stack.createProject('Original links');
  const large = await stack.upload(projectId, 'large.txt', LARGE);
  expect(large.status).toBe(202);
  largeId = large.body.id as string;
  const other = await stack.upload(projectId, 'other-large.txt', LARGE);
  expect(other.status).toBe(202);
  otherLargeId = other.body.id as string;
}, 300_000);
afterAll(() => stack.stop());

async function documentUrl(id: string): Promise<string> {
  const { document } = await stack.query<{ document: { url: string } }>(
    'query($id: ID!) { document(id: $id) { url } }',
    { id },
  );
  return document.url;
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

/** The api's open file descriptors on a document's stored originals. */
function openOriginalFiles(documentId: string): string[] {
  const folder = join(realpathSync(stack.blobDir), 'originals', documentId);
  const fdDir = `/proc/${stack.apiPid}/fd`;
  return readdirSync(fdDir)
    .map((fd) => {
      try {
        return readlinkSync(join(fdDir, fd));
      } catch {
        return ''; // closed while we looked
      }
    })
    .filter((target) => target.startsWith(`${folder}/`));
}

/** Reads a whole response body as it arrives, keeping only its length and SHA-256. */
async function download(url: string): Promise<{ status: number; bytes: number; sha256: string }> {
  const response = await fetch(url);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    hash.update(chunk);
  }
  return { status: response.status, bytes, sha256: hash.digest('hex') };
}

interface HeldDownload {
  status: number;
  headers: IncomingHttpHeaders;
  request: ClientRequest;
  response: IncomingMessage;
}

/** Starts a download and stops reading once the headers arrived: the connection stays open. */
function hold(url: string): Promise<HeldDownload> {
  return new Promise((resolve, reject) => {
    const req = request(url, (response) => {
      response.pause();
      resolve({ status: response.statusCode!, headers: response.headers, request: req, response });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A held download that must be admitted (a download that just ended may still hold its slot). */
async function admitted(url: string): Promise<HeldDownload> {
  return expectEventually(
    async () => {
      const held = await hold(url);
      if (held.status !== 200) {
        held.request.destroy();
        throw new Error(`download refused with ${held.status}`);
      }
      return held;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
}

/** The body of a refused download (JSON, small). */
async function readJson(held: HeldDownload): Promise<unknown> {
  held.response.resume();
  const chunks: Buffer[] = [];
  for await (const chunk of held.response) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

describe('downloads of originals are streamed', () => {
  it('ten simultaneous downloads of a 48 MB original grow the api by far less than one copy each', async () => {
    const link = await documentUrl(largeId);
    expect(await download(link)).toEqual({ status: 200, bytes: LARGE.length, sha256: LARGE_SHA });
    const before = rssBytes(stack.apiPid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(stack.apiPid));
    }, 20);
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => download(link)));
      for (const result of results) {
        expect(result).toEqual({ status: 200, bytes: LARGE.length, sha256: LARGE_SHA });
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssBytes(stack.apiPid));
    console.log(
      `[originals] api RSS ${before >> 20} MB → peak ${peak >> 20} MB for ${(10 * LARGE.length) >> 20} MB downloaded`,
    );
    // Buffered, the ten downloads took about 480 MB (one copy each); streamed, a few chunks each.
    expect(peak - before).toBeLessThan(100 * MiB);
  }, 300_000);

  it('a download answers with its length, byte ranges, an ETag and Last-Modified', async () => {
    const link = await documentUrl(largeId);
    const full = await fetch(link, { method: 'HEAD' });
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('content-length')).toBe(String(LARGE.length));
    expect(full.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(Date.parse(full.headers.get('last-modified')!)).not.toBeNaN();

    // fetch() adds `Cache-Control: no-cache` to conditional requests (which must then get the file)
    // unless the request names its own.
    const unchanged = await fetch(link, {
      headers: { 'If-None-Match': full.headers.get('etag')!, 'Cache-Control': 'max-age=0' },
    });
    expect(unchanged.status).toBe(304);
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0);
  });

  it('Range requests return exactly the bytes asked for (206 with Content-Range)', async () => {
    const link = await documentUrl(largeId);
    const size = LARGE.length;
    const middle = Math.floor(size / 2);
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      [`bytes=${middle}-${middle + 65_535}`, middle, middle + 65_535],
      ['bytes=-37', size - 37, size - 1],
      [`bytes=${size - 5}-`, size - 5, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await fetch(link, { headers: { Range: range } });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(Buffer.from(await response.arrayBuffer()).equals(LARGE.subarray(start, end + 1)), range).toBe(
        true,
      );
    }
  });

  it('an unsatisfiable range gets 416 with the size; a stale If-Range gets the whole file', async () => {
    const link = await documentUrl(largeId);
    const size = LARGE.length;
    const outside = await fetch(link, { headers: { Range: `bytes=${size}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(await outside.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/range/) },
    });

    const stale = await fetch(link, { headers: { Range: 'bytes=0-9', 'If-Range': '"not-this-version"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-length')).toBe(String(size));
    await stale.body!.cancel();
  });
});

describe('simultaneous downloads are bounded', () => {
  it('per link and per client address: the excess gets 429 with Retry-After; aborted downloads free their slot and file', async () => {
    const link = await documentUrl(largeId);
    const held: HeldDownload[] = [];
    try {
      for (let i = 0; i < PER_LINK; i++) held.push(await admitted(link));
      // Each held download has its file open and reads only as fast as the client takes it.
      expect(openOriginalFiles(largeId)).toHaveLength(PER_LINK);

      const overLink = await hold(link);
      expect(overLink.status).toBe(429);
      expect(Number(overLink.headers['retry-after'])).toBeGreaterThan(0);
      expect(await readJson(overLink)).toEqual({
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/downloads of this original/) },
      });

      // Another original is still open to this client, up to its per-address limit.
      const otherLink = await documentUrl(otherLargeId);
      for (let i = PER_LINK; i < PER_ADDRESS; i++) held.push(await admitted(otherLink));
      const overAddress = await hold(otherLink);
      expect(overAddress.status).toBe(429);
      expect(Number(overAddress.headers['retry-after'])).toBeGreaterThan(0);
      expect(await readJson(overAddress)).toEqual({
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/downloads from this address/) },
      });
    } finally {
      for (const download of held) download.request.destroy();
    }

    // The clients went away: the api closes the files and admits new downloads again.
    await expectEventually(
      async () => {
        expect(openOriginalFiles(largeId)).toEqual([]);
        expect(openOriginalFiles(otherLargeId)).toEqual([]);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const again = await admitted(link);
    again.request.destroy();
  }, 120_000);
});

describe('stored pages are inert', () => {
  it('an HTML original is a sandboxed attachment that may load nothing remote', async () => {
    const page = [
      '<!doctype html><html><head><meta http-equiv="refresh" content="0;url=https://elsewhere.example/">',
      '<title>Remote</title></head><body><h1>Remote things</h1>',
      '<img src="https://tracker.example/pixel.png"><script>fetch("https://tracker.example/")</script>',
      '<p>Some text to index.</p></body></html>',
    ].join('\n');
    const upload = await stack.upload(projectId, 'remote.html', page);
    expect(upload.status).toBe(202);
    const response = await fetch(await documentUrl(upload.body.id as string));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(page);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename\*=UTF-8''remote\.html$/,
    );
    const policy = Object.fromEntries(
      response.headers
        .get('content-security-policy')!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(policy).toMatchObject({
      sandbox: [],
      'default-src': ["'none'"],
      'img-src': ["'self'", 'data:'],
      'frame-ancestors': ["'none'"],
    });
    expect(policy['script-src']).toBeUndefined();
    expect(JSON.stringify(policy)).not.toMatch(/https?:|\*/);
  });

  it('a text original still opens in the browser (inline), as citations expect', async () => {
    const upload = await stack.upload(projectId, 'notes.md', '# Notes\n\nplain words\n');
    const response = await fetch(await documentUrl(upload.body.id as string));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''notes.md");
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(await response.text()).toBe('# Notes\n\nplain words\n');
  });
});

describe('a client that stops reading', () => {
  // Its own api: one download per original, and a stall limit of 2 s.
  const stalling = new TroveStack({
    TROVE_MAX_UPLOAD_BYTES: String(64 * MiB),
    TROVE_ORIGINAL_DOWNLOADS_PER_LINK: '1',
    TROVE_ORIGINAL_STALL_SECONDS: '2',
  });
  let link: string;

  beforeAll(async () => {
    await stalling.start();
    await stalling.killWorker();
    const project = await stalling.createProject('Stalled downloads');
    const upload = await stalling.upload(project, 'large.txt', LARGE);
    expect(upload.status).toBe(202);
    const { document } = await stalling.query<{ document: { url: string } }>(
      'query($id: ID!) { document(id: $id) { url } }',
      { id: upload.body.id },
    );
    link = document.url;
  }, 300_000);
  afterAll(() => stalling.stop());

  it('is cut off once its socket has moved nothing for the stall limit, freeing the slot', async () => {
    const stalled = await hold(link);
    expect(stalled.status).toBe(200);
    // The one slot is taken while the client holds it.
    const refused = await hold(link);
    expect(refused.status).toBe(429);
    refused.request.destroy();
    // The api closes the stalled connection by itself, so the slot is free again while the client
    // still holds its end (a paused client does not read the close); the deadline bounds a hang.
    const next = await expectEventually(
      async () => {
        const attempt = await hold(link);
        if (attempt.status !== 200) {
          attempt.request.destroy();
          throw new Error(`download refused with ${attempt.status}`);
        }
        return attempt;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    stalled.request.destroy();
    next.request.destroy();
  }, 120_000);
});
