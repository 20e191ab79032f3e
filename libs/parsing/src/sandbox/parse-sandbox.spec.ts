import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS, TroveErrorCode } from '@trove/domain';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { ParserRegistry } from '../parser-registry';
import { ParseSandbox } from './parse-sandbox';

const sandbox = new ParseSandbox({ timeoutMs: 20_000, maxMemoryMb: 256, threads: 1 });
afterAll(() => sandbox.close());

const markdown = (text: string, fileName = 'a.md') => ({
  fileName,
  mediaType: 'text/markdown',
  data: Buffer.from(text),
});

describe('ParseSandbox', () => {
  it('parses in a thread and reuses it', async () => {
    const first = await sandbox.parse(markdown('# One\n\nHello there.'));
    const second = await sandbox.parse(markdown('# Two\n\nAgain.'));
    expect(first.title).toBe('One');
    expect(second.blocks[0].text).toBe('Again.');
  });

  it('warms every thread before the first document; a warm-up that fails leaves no thread behind and never throws', async () => {
    const warm = new ParseSandbox({ timeoutMs: 20_000, maxMemoryMb: 256, threads: 2 });
    try {
      expect(warm.threadCount).toBe(0);
      await warm.warm();
      expect(warm.threadCount).toBe(2);
      await expect(warm.parse(markdown('# W\n\nwarm'))).resolves.toMatchObject({ title: 'W' });
      expect(warm.threadCount).toBe(2);
    } finally {
      await warm.close();
    }
    const stopped = new ParseSandbox({ timeoutMs: 1, maxMemoryMb: 256, threads: 1 });
    try {
      await stopped.warm(); // its one parse exceeds the time limit: the thread is stopped
      expect(stopped.threadCount).toBe(0);
    } finally {
      await stopped.close();
    }
  });

  it('replaces a thread whose memory grew past the bound after a document, and keeps one below it', async () => {
    const roomy = new ParseSandbox({
      timeoutMs: 20_000,
      maxMemoryMb: 256,
      threads: 1,
      recycleThreadMb: 100_000,
    });
    const tight = new ParseSandbox({ timeoutMs: 20_000, maxMemoryMb: 256, threads: 1, recycleThreadMb: 1 });
    try {
      await roomy.parse(markdown('# R\n\nroomy'));
      await roomy.parse(markdown('# R\n\nagain'));
      expect([roomy.threadCount, roomy.recycledThreads]).toEqual([1, 0]);
      // Every thread holds more than 1 MB: each is replaced once its answer is in, and the answer stands.
      await expect(tight.parse(markdown('# T\n\ntight'))).resolves.toMatchObject({ title: 'T' });
      expect([tight.threadCount, tight.recycledThreads]).toEqual([0, 1]);
      await expect(tight.parse(markdown('# U\n\nnext', 'u.md'))).resolves.toMatchObject({ title: 'U' });
      expect(tight.recycledThreads).toBe(2);
      // A failed document's thread is measured too.
      await expect(tight.parse(markdown('# Only a heading', 'empty.md'))).rejects.toMatchObject({
        code: TroveErrorCode.EmptyDocument,
      });
      expect(tight.recycledThreads).toBe(3);
    } finally {
      await Promise.all([roomy.close(), tight.close()]);
    }
  }, 60_000);

  it('stops a thread that stays idle, and starts one for the next document', async () => {
    const resting = new ParseSandbox({ timeoutMs: 20_000, maxMemoryMb: 256, threads: 2, idleThreadMs: 50 });
    try {
      await Promise.all([resting.parse(markdown('# A\n\none')), resting.parse(markdown('# B\n\ntwo'))]);
      expect(resting.threadCount).toBeGreaterThan(0);
      await vi.waitFor(() => expect(resting.threadCount).toBe(0), { timeout: 30_000, interval: 20 });
      await expect(resting.parse(markdown('# C\n\nthree'))).resolves.toMatchObject({ title: 'C' });
      expect(resting.threadCount).toBe(1);
    } finally {
      await resting.close();
    }
  }, 60_000);

  it("holds every document to the sandbox's document limits, in its threads", async () => {
    const strict = new ParseSandbox(
      { timeoutMs: 20_000, maxMemoryMb: 256, threads: 1 },
      { ...DEFAULT_DOCUMENT_LIMITS, maxBytes: 40, maxTextChars: 10 },
    );
    try {
      await expect(strict.parse(markdown('# A\n\n' + 'x'.repeat(60), 'big.md'))).rejects.toMatchObject({
        code: TroveErrorCode.PayloadTooLarge,
        permanent: true,
        message:
          'big.md has 65 bytes, over the limit of 40 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
      });
      await expect(strict.parse(markdown('# A\n\nsome more words', 'long.md'))).rejects.toMatchObject({
        code: TroveErrorCode.ParseLimitExceeded,
        permanent: true,
        message:
          'long.md has 15 characters of text, over the limit of 10 characters of text per document (TROVE_DOCUMENT_MAX_TEXT_CHARS raises it)',
      });
      await expect(strict.parse(markdown('# A\n\nword', 'ok.md'))).resolves.toMatchObject({ title: 'A' });
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('passes permanent parser errors through with their code', async () => {
    await expect(sandbox.parse(markdown('# Only a heading', 'empty.md'))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
      permanent: true,
    });
  });

  it("passes a project's OCR switch to the thread: an image fails without OCR", async () => {
    // A PNG's signature is all the parser looks at before the switch.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    await expect(
      sandbox.parse({ fileName: 'scan.png', mediaType: 'image/png', data: png, ocr: false }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.NoTextLayer,
      message: expect.stringMatching(/switched off for this project/),
    });
  });

  it('stops a parse that runs too long and keeps working afterwards', async () => {
    const large = markdown('# T\n\n' + 'word '.repeat(200_000));
    await expect(sandbox.parse(large, { timeoutMs: 1 })).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      permanent: true,
    });
    await expect(sandbox.parse(markdown('# T\n\nfine'))).resolves.toMatchObject({ title: 'T' });
  });

  it('chunks in the thread: from the parsed JSON it gave, or right after parsing, as the chunker does in-process', async () => {
    const input = markdown(
      '# Guide\n\n' + 'One sentence about chunking here. '.repeat(60) + '\n\n## Next\n\nMore.',
    );
    const job = {
      options: { targetTokens: 80, overlapTokens: 10 },
      context: { documentId: 'd', projectId: 'p' },
    };
    const expected = new Chunker(new SegmenterTokenCounter(), job.options).chunk(
      await ParserRegistry.default().parse(input),
      job.context,
    );
    const parsed = await sandbox.parseToJson(input);
    expect(parsed.summary).toEqual({ title: 'Guide', metadata: {} });
    const fromJson = await sandbox.chunk({ fileName: 'a.md', json: parsed.json }, job);
    const together = await sandbox.parseAndChunk(input, job);
    expect(expected.length).toBeGreaterThan(3);
    expect(fromJson.chunks).toEqual(expected);
    expect(together.chunks).toEqual(expected);
    expect(together.summary).toEqual(parsed.summary);
  });

  it('leaves the event loop free while a large document is chunked', async () => {
    const sentences = Array.from(
      { length: 8_000 },
      (_, i) => `Sentence ${i} says something about retrieval.`,
    );
    const input = { fileName: 'long.txt', mediaType: 'text/plain', data: Buffer.from(sentences.join(' ')) };
    const job = {
      options: { targetTokens: 200, overlapTokens: 20 },
      context: { documentId: 'd', projectId: 'p' },
    };
    let ticks = 0;
    let done = false;
    const chunked = sandbox.parseAndChunk(input, job).finally(() => (done = true));
    // Timers keep running here while the thread works; chunking on this thread would allow none.
    while (!done) await new Promise((resolve) => setTimeout(resolve, 0)).then(() => ticks++);
    expect((await chunked).chunks.length).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(20);
  });

  it('keeps a thread for small files while large documents are chunked', () => {
    // A plain Node process, as the worker runs, for threads busy for seconds (see below).
    const output = execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'large-and-small.fixture.ts')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    // The small file took the thread the second large document waits for: it ended first.
    expect(JSON.parse(output)).toEqual(['small', 'first large', 'second large']);
  }, 120_000);

  it('stops chunking that runs longer than its own limit, naming the setting, and keeps working afterwards', () => {
    // A plain Node process, as the worker runs: vitest's process pool does not survive a thread
    // stopped in the middle of segmenting text (plain Node only ends the thread).
    const output = execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'chunk-stopped.fixture.ts')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(JSON.parse(output)).toEqual({
      // Parsing is held to the parse limit (a minute), and only chunking to the chunking one.
      stopped: {
        code: TroveErrorCode.ParseLimitExceeded,
        permanent: true,
        message:
          'a.md: chunking took longer than 0.001 s and was stopped (TROVE_CHUNK_TIMEOUT_MS raises the limit)',
      },
      afterwards: 'Still',
    });
  }, 120_000);

  it('reads images by OCR in the thread, reporting each page as progress, and replaces a thread stopped in the middle of OCR', () => {
    // A plain Node process, as the worker runs: vitest's process pool does not survive threads
    // stopped while their OCR worker runs (plain Node only ends the thread).
    const output = execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'ocr-stopped.fixture.ts')],
      { encoding: 'utf8', timeout: 170_000 },
    );
    const result = JSON.parse(output);
    expect(result.first).toHaveLength(1);
    expect(result.first[0]).toMatchObject({ page: 1, ocr: true });
    expect(result.first[0].text).toMatch(/^Scanned contracts and photographed whiteboards/);
    expect(result.stopped).toEqual({ code: TroveErrorCode.ParseLimitExceeded, permanent: true });
    expect(result.afterwards).toEqual(result.first);
    expect(result.tiff).toEqual({ pages: 2, progress: [1, 2] });
  }, 180_000);

  it('stops a parse that needs more memory than allowed, with a permanent reason', () => {
    // Run in a plain Node process, as the worker runs: vitest's own process pool does not survive
    // a thread hitting its heap limit, while Node itself only ends the thread.
    const output = execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'out-of-memory.fixture.ts')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(JSON.parse(output)).toEqual({
      huge: {
        code: TroveErrorCode.ParseLimitExceeded,
        permanent: true,
        message: 'huge.html: parsing needed more than 96 MB of memory and was stopped',
      },
      // The thread was replaced: the sandbox still parses.
      afterwards: 'Still',
    });
    // A child Node process compiling TypeScript: seconds on a loaded 2-core machine.
  }, 120_000);
});
