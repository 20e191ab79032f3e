import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, TroveStack } from '../support/stack';

const LIMIT = 20 * 1024 * 1024;
const LINK_TTL_SECONDS = 3;
const stack = new TroveStack({
  TROVE_MAX_UPLOAD_BYTES: String(LIMIT),
  TROVE_LINK_TTL_SECONDS: String(LINK_TTL_SECONDS),
});
let projectId: string;

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Uploads security');
});
afterAll(() => stack.stop());

/** Every file in the blob store (staging, originals, archives). */
function storedFiles(): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        )
      : [];
  return walk(stack.blobDir);
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

async function documentUrl(id: string): Promise<string> {
  const { document } = await stack.query<{ document: { url: string } }>(
    'query($id: ID!) { document(id: $id) { url } }',
    { id },
  );
  return document.url;
}

async function postForm(form: FormData): Promise<{ status: number; body: { error?: { code: string } } }> {
  const response = await fetch(`${stack.url}/v1/projects/${projectId}/documents`, {
    method: 'POST',
    headers: { 'X-API-Key': ADMIN_KEY },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
}

describe('links to originals', () => {
  it('a new upload of a deleted name gets a new id, and the old link does not open it', async () => {
    const first = await stack.upload(projectId, 'a.md', '# First a\n\nthe first file\n');
    expect(first.status).toBe(202);
    const oldLink = await documentUrl(first.body.id as string);
    expect((await (await fetch(oldLink)).text()).startsWith('# First a')).toBe(true);
    await stack.query('mutation($id: ID!) { deleteDocument(id: $id) }', { id: first.body.id });

    const second = await stack.upload(projectId, 'a.md', '# Second a\n\nanother file of the same name\n');
    expect(second.status).toBe(202);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const old = await fetch(oldLink);
    expect(old.status).toBe(404);
    const current = await fetch(await documentUrl(second.body.id as string));
    expect(current.status).toBe(200);
    expect((await current.text()).startsWith('# Second a')).toBe(true);
    // The name is still taken once: a third upload of a.md is a conflict.
    expect((await stack.upload(projectId, 'a.md', '# Third')).status).toBe(409);
  });

  it('a signed link expires; expired and forged links are refused with a clear message', async () => {
    const upload = await stack.upload(projectId, 'expiring.md', '# Expiring\n\nsoon gone\n');
    const link = await documentUrl(upload.body.id as string);
    expect((await fetch(link)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, (LINK_TTL_SECONDS + 1.2) * 1000));

    const expired = await fetch(link);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/link to the original has expired/) },
    });
    const forged = await fetch(link.replace(/sig=[\w-]+/, 'sig=zzzzzz-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/not valid/);
    // The API key still opens it, and the document serves a freshly signed link.
    expect((await fetch(link, { headers: { 'X-API-Key': ADMIN_KEY } })).status).toBe(200);
    expect((await fetch(await documentUrl(upload.body.id as string))).status).toBe(200);
  });
});

describe('upload limits', () => {
  it('a file one byte over the limit is refused with 413 and nothing is stored', async () => {
    const before = storedFiles();
    const response = await stack.upload(projectId, 'over.md', Buffer.alloc(LIMIT + 1, 'x'));
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(storedFiles()).toEqual(before);
  });

  it('a declared Content-Length over the limit is refused at once, before the body is read', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${stack.url}/v1/projects/${projectId}/documents`, {
        method: 'POST',
        headers: {
          'X-API-Key': ADMIN_KEY,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(10 * 1024 * 1024 * 1024),
        },
      });
      req.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      // A little of the body, then silence: a server that waited for the rest would never answer.
      req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="huge.md"\r\n\r\n# huge\n');
    });
    // An answer at all is the proof: the rest of the body was never sent.
    expect(status).toBe(413);
  });

  it('too many form fields or too large a field are refused and nothing is stored', async () => {
    const before = storedFiles();
    const many = new FormData();
    for (let i = 0; i < 50; i++) many.append(`field${i}`, 'x');
    many.append('file', new Blob(['# many']), 'many.md');
    const tooMany = await postForm(many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error?.code).toBe('BAD_REQUEST');

    const big = new FormData();
    big.append('note', 'x'.repeat(1024 * 1024));
    big.append('file', new Blob(['# big field']), 'big-field.md');
    expect((await postForm(big)).status).toBe(400);

    const parts = new FormData();
    for (let i = 0; i < 5; i++) parts.append('file', new Blob(['# part']), `part${i}.md`);
    expect((await postForm(parts)).status).toBe(400);
    expect(storedFiles()).toEqual(before);
  });

  it('ten concurrent uploads at the limit leave the api memory about flat', async () => {
    // Binary content is streamed in full, then refused by type (415): no ingest load on the
    // shared services, and the same path through the api as an accepted upload.
    const file = Buffer.alloc(LIMIT, 0x61);
    // gzip's magic bytes: a type Trove does not take (images now go to OCR).
    Buffer.from([0x1f, 0x8b, 8, 0]).copy(file);
    await stack.upload(projectId, 'warm-up.md', file.subarray(0, 1024 * 1024));
    const pid = stack.apiPid;
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 50);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => stack.upload(projectId, `concurrent-${i}.md`, file)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(415));
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - baseline;
    console.log(
      `[uploads] api RSS ${baseline >> 20} MB → peak ${peak >> 20} MB for ${(10 * LIMIT) >> 20} MB uploaded`,
    );
    expect(growth).toBeLessThan(0.25 * 10 * LIMIT);
    expect(storedFiles().filter((f) => f.includes('incoming'))).toEqual([]);
  });
});

describe('file names and types', () => {
  it('refuses bidirectional overrides and invisible characters; stores names in NFC', async () => {
    const rlo = await stack.upload(projectId, 'invoice\u202Efdp.md', '# x');
    expect(rlo.status).toBe(400);
    expect(rlo.body.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/U\+202E/) });
    expect((await stack.upload(projectId, 'zero\u200Bwidth.md', '# x')).status).toBe(400);

    const decomposed = await stack.upload(projectId, 'cafe\u0301.md', '# Café\n\nnotes\n');
    expect(decomposed.status).toBe(202);
    expect(decomposed.body.fileName).toBe('caf\u00e9.md');
    // The same name typed precomposed is the same name.
    expect((await stack.upload(projectId, 'caf\u00e9.md', '# again')).status).toBe(409);
  });

  it('an empty .pdf is accepted and then fails as empty, not as an unsupported extension', async () => {
    const empty = await stack.upload(projectId, 'empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(202);
    expect(empty.body.mediaType).toBe('application/pdf');
    const failed = await stack.settled(empty.body.id as string);
    expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'EMPTY_DOCUMENT' } });
    expect(failed.error!.message).toMatch(/empty/);
  });

  it('text that mentions %PDF- is text, not a PDF', async () => {
    const upload = await stack.upload(
      projectId,
      'pdf-notes.md',
      '# PDF notes\n\nEvery PDF starts with %PDF-1.7.\n',
    );
    expect(upload.status).toBe(202);
    expect(upload.body.mediaType).toBe('text/markdown');
  });
});
