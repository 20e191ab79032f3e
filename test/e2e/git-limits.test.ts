import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitTestServer } from '@trove/connector-git/testing';
import { PickyEmbedder } from '../fakes/picky-embedder-fake';
import { expectEventually, uniqueName } from '../support/services';
import { TroveStack } from '../support/stack';

/**
 * The document limits on Git sources, through the API and the real worker: a repository of one
 * 120 MB (compressible) file and one of 60,000 files, served by a local `git http-backend`. The
 * big file and the files beyond the source's document limit are skipped before they are fetched,
 * each with a reason naming the limit and the setting that raises it; the rest is indexed. While
 * each sync runs, a small upload in another project becomes READY and a third project's
 * `deleteProject(wait: true)` returns, each within 60 s: nothing waits behind the repository.
 * A fast fake embedder stands in for the model, so the deadlines measure the worker, not a shared
 * embedding server.
 */
const MAX_DOCUMENTS = 40;
const TOKEN = `glpat-${randomBytes(16).toString('hex')}`;
const scratch = mkdtempSync(join(tmpdir(), 'trove-git-limits-e2e-'));
const server = new GitTestServer();
const embedder = new PickyEmbedder();
let stack: TroveStack;

beforeAll(async () => {
  await server.start();
  server.token = TOKEN;
  stack = new TroveStack({
    TROVE_EMBEDDING_BASE_URL: await embedder.start(),
    // The remote is http:// on 127.0.0.1: allowed for this stack only.
    TROVE_GIT_ALLOW_PRIVATE_NETWORKS: 'true',
    TROVE_GIT_ALLOW_INSECURE: 'true',
    TROVE_GIT_CACHE_DIR: join(scratch, 'git-cache'),
    // Few documents per source, so the repository of too many files indexes only a few of them.
    TROVE_SOURCE_MAX_DOCUMENTS: String(MAX_DOCUMENTS),
  });
  await stack.start();
});

afterAll(async () => {
  // Measured once for the record (not a limit of the test): the worker's peak resident memory.
  const peak =
    stack && /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${stack.workerPid}/status`, 'utf8'))?.[1];
  if (peak)
    console.info(
      `worker peak resident memory over the Git limits tests: ${Math.round(Number(peak) / 1024)} MB`,
    );
  await stack?.stop();
  await embedder.stop();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Writes one commit on `main` of a bare repository with `git fast-import`, the files' bytes
 * streamed from `files` (path and chunks): a 120 MB file without a 120 MB buffer, 60,000 files
 * in a second.
 */
async function fastImport(
  bare: string,
  files: Iterable<{ path: string; size: number; chunks: Iterable<Buffer> }>,
): Promise<void> {
  const child = spawn('git', ['--git-dir', bare, 'fast-import', '--quiet'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { PATH: process.env['PATH'], GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<void>((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import: ${stderr}`)))),
  );
  const write = (data: string | Buffer) =>
    child.stdin!.write(data) ? undefined : new Promise((resolve) => child.stdin!.once('drain', resolve));
  await write(
    'commit refs/heads/main\ncommitter Keeper <keeper@trove.invalid> 1700000000 +0000\ndata 5\nfiles\n',
  );
  for (const file of files) {
    await write(`M 100644 inline ${file.path}\ndata ${file.size}\n`);
    for (const chunk of file.chunks) await write(chunk);
    await write('\n');
  }
  child.stdin!.end();
  await done;
}

/** One file's bytes as chunks: `text` repeated to `size` bytes, 1 MB at a time. */
function repeated(text: string, size: number): { size: number; chunks: Iterable<Buffer> } {
  const block = Buffer.from(text.repeat(Math.ceil((1024 * 1024) / text.length))).subarray(0, 1024 * 1024);
  function* chunks() {
    for (let at = 0; at < size; at += block.length)
      yield block.subarray(0, Math.min(block.length, size - at));
  }
  return { size, chunks: chunks() };
}

/** One small file's bytes. */
function text(content: string): { size: number; chunks: Iterable<Buffer> } {
  const data = Buffer.from(content);
  return { size: data.length, chunks: [data] };
}

/** Rejects when `work` has not settled within `ms`: a deadline that only bounds a hang. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('a Git source over the document limits', () => {
  /** Adds a source for the repository and starts its FULL sync; returns the run id. */
  async function startSync(project: string, url: string): Promise<{ sourceId: string; runId: string }> {
    const { addSource } = await stack.query<{ addSource: { id: string } }>(
      'mutation($i: AddSourceInput!) { addSource(input: $i) { id } }',
      { i: { projectId: project, type: 'GIT', name: url, config: { url, token: TOKEN } } },
    );
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: addSource.id },
    );
    return { sourceId: addSource.id, runId: syncSource.id };
  }

  /** While a sync runs: another project's small upload becomes READY and a third project's deletion returns. */
  async function othersKeepGoing(): Promise<void> {
    const other = await stack.createProject(uniqueName('Git limits neighbour'));
    const doomed = await stack.createProject(uniqueName('Git limits doomed'));
    await stack.upload(doomed, 'doomed.md', '# Doomed\n\nThis project is deleted at once.\n');
    const upload = await stack.upload(other, 'tide-table.md', '# Tide table\n\nHigh water at 06:12.\n');
    expect(upload.status).toBe(202);
    await Promise.all([
      within(
        60_000,
        'a small upload in another project',
        expectEventually(
          async () => {
            const document = await stack.document(String(upload.body.id));
            if (document?.status !== 'READY') throw new Error(`the upload is ${document?.status}`);
          },
          { timeoutMs: 120_000 },
        ),
      ),
      within(
        60_000,
        'deleteProject(wait: true) of a third project',
        stack.query('mutation($id: ID!) { deleteProject(id: $id, wait: true) }', { id: doomed }),
      ),
    ]);
  }

  /**
   * Until the sync has ended: again and again, another project's small upload becomes READY and a
   * third project's deletion returns, each within 60 s. (Once at least, however fast the sync.)
   */
  async function othersKeepGoingWhile(runId: string): Promise<void> {
    do await othersKeepGoing();
    while ((await runStatus(runId)) === 'RUNNING');
  }

  async function runStatus(runId: string): Promise<string> {
    const { syncRun } = await stack.query<{ syncRun: { status: string } }>(
      'query($id: ID!) { syncRun(id: $id) { status } }',
      { id: runId },
    );
    return syncRun.status;
  }

  async function skippedCount(runId: string): Promise<number> {
    const { syncRun } = await stack.query<{ syncRun: { progress: { pagesSkipped: number } } }>(
      'query($id: ID!) { syncRun(id: $id) { progress { pagesSkipped } } }',
      { id: runId },
    );
    return syncRun.progress.pagesSkipped;
  }

  it('a 120 MB compressible file is skipped before it is fetched, with the limit named; the rest is indexed while other projects go on', async () => {
    const big = server.repository('big-file');
    await fastImport(big.bare, [
      { path: 'README.md', ...text('# Big file\n\nThe keepers log every night in big.txt.\n') },
      { path: 'big.txt', ...repeated('the lamp was lit at dusk and put out at dawn\n', 125_829_039) },
    ]);
    const project = await stack.createProject(uniqueName('Git big file'));
    const { sourceId: id, runId } = await startSync(project, big.httpUrl);

    await othersKeepGoingWhile(runId);
    const run = await stack.runSettled(runId);
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.skipped).toEqual([
      {
        id: 'big.txt',
        reason:
          'big.txt has 125,829,039 bytes, over the limit of 52,428,800 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
      },
    ]);
    expect(run.progress).toMatchObject({ pagesSeen: 2, pagesIngested: 1, pagesFailed: 0 });
    expect(await skippedCount(runId)).toBe(1);
    const { documents } = await stack.query<{
      documents: { nodes: { externalId: string; status: string }[] };
    }>(
      'query($p: ID!, $s: ID) { documents(projectId: $p, sourceId: $s, first: 10) { nodes { externalId status } } }',
      { p: project, s: id },
    );
    expect(documents.nodes).toEqual([{ externalId: 'README.md', status: 'READY' }]);
  }, 600_000);

  it(`60,000 small files: ${MAX_DOCUMENTS} are indexed, the rest skipped with the limit named, while other projects go on`, async () => {
    const many = server.repository('many-files');
    const files = function* () {
      for (let i = 0; i < 60_000; i++)
        yield { path: `notes/${String(i).padStart(5, '0')}.md`, ...text(`# Note ${i}\n\nTide ${i}.\n`) };
    };
    await fastImport(many.bare, files());
    const project = await stack.createProject(uniqueName('Git many files'));
    const { runId } = await startSync(project, many.httpUrl);

    await othersKeepGoingWhile(runId);
    const run = await stack.runSettled(runId);
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.progress).toMatchObject({ pagesSeen: 60_000, pagesIngested: MAX_DOCUMENTS, pagesFailed: 0 });
    expect(await skippedCount(runId)).toBe(60_000 - MAX_DOCUMENTS);
    const reason = `not indexed: the source has 60,000 documents, over the limit of ${MAX_DOCUMENTS} documents per source (TROVE_SOURCE_MAX_DOCUMENTS raises it)`;
    // The first thousand are listed one by one, the rest counted.
    expect(run.skipped).toHaveLength(1_000);
    expect(new Set(run.skipped.map((s) => s.reason))).toEqual(new Set([reason]));
    expect(run.warnings).toEqual(
      expect.arrayContaining([
        `${60_000 - MAX_DOCUMENTS} item(s) were not indexed: the source has 60,000 documents, over the limit of ${MAX_DOCUMENTS} documents per source (TROVE_SOURCE_MAX_DOCUMENTS raises it)`,
      ]),
    );
  }, 600_000);
});
