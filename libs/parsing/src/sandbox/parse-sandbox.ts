import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentLimits, ParsedDocument, ParseInput } from '@trove/domain';
import { DEFAULT_DOCUMENT_LIMITS, PermanentDocumentError, TroveError, TroveErrorCode } from '@trove/domain';
import {
  type ChunkedFile,
  chunked,
  type ChunkJob,
  type ParsedFile,
  type ParseRequest,
  type ParseResult,
} from './document-steps';
// The image parser decodes with sharp (libvips) in the parsing threads. Loaded here too, so its
// shared libraries stay loaded when a thread exits or is stopped (glibc would unload them
// under the other threads' feet otherwise; sharp's documentation asks for this).
import sharp from 'sharp';

// libvips keeps recent operations and their pixels (up to 50 MB, process-wide) for the next
// call on the same image; every page and image here is read once, so nothing would be reused.
sharp.cache(false);

export interface ParseLimits {
  /**
   * A parse running longer than this is stopped and the document fails. Each page read by OCR
   * renews it (a long scan makes progress page by page), up to `maxOcrDocumentMs` in all.
   */
  timeoutMs: number;
  /** The longest a document read by OCR may take, however steadily its pages progress. */
  maxOcrDocumentMs?: number;
  /**
   * Chunking a document in a thread running longer than this is stopped and the document fails
   * (`TROVE_CHUNK_TIMEOUT_MS`). Unset: {@link DEFAULT_CHUNK_TIMEOUT_MS}.
   */
  chunkTimeoutMs?: number;
  /** Heap limit of a parsing thread; a file that needs more fails instead of the worker. */
  maxMemoryMb: number;
  /** Parsing threads kept at most (one parse each at a time). */
  threads: number;
  /**
   * A thread whose memory (its V8 heap and the buffers it holds) is above this after a request is
   * replaced by a fresh one: one large PDF grows a thread's heap by hundreds of MB, which V8 keeps
   * long after the document is gone. Unset: {@link DEFAULT_RECYCLE_THREAD_MB}.
   */
  recycleThreadMb?: number;
  /**
   * A thread idle this long is stopped (with the OCR workers it started); the next request starts
   * one again. Unset: {@link DEFAULT_IDLE_THREAD_MS}.
   */
  idleThreadMs?: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { timeoutMs: 240_000, maxMemoryMb: 1024, threads: 2 };
/**
 * A thread that has loaded every parser holds about 95 MB (heap and buffers), and small documents
 * keep it there; after an ordinary PDF it holds 150-225 MB (pdf.js keeps caches). Replacing a thread
 * costs about a second of CPU, so only one that grew past what ordinary documents leave is replaced.
 */
export const DEFAULT_RECYCLE_THREAD_MB = 256;
/** Long enough that a steady sync never stops its threads; short enough that an idle worker rests small. */
export const DEFAULT_IDLE_THREAD_MS = 60_000;
/** Under the ingest workflow's 10 minutes for the chunk step; a 50 MB text chunks in a few minutes. */
export const DEFAULT_CHUNK_TIMEOUT_MS = 300_000;
/** Under the ingest workflow's 10 minutes for the parse step. */
const DEFAULT_MAX_OCR_DOCUMENT_MS = 9 * 60_000;

export type { ChunkedFile, ChunkJob, ParsedFile, ParsedSummary } from './document-steps';
export { InProcessParser } from './document-steps';

/** @internal what a parsing thread is started with */
export interface ParseThreadData {
  documentLimits: DocumentLimits;
}

/** @internal a parsing thread's answer, or news of its progress (a page read by OCR, chunking begun) */
export type ParseReply =
  | ({ ok: true; memoryMb: number } & ParseResult)
  | { ok: false; code?: TroveErrorCode; message: string; permanent: boolean; memoryMb: number }
  | { progress: { ocrPage: number; pageCount?: number } }
  | { chunking: true };

/** Options of one document's steps in the sandbox. */
export interface SandboxOptions {
  signal?: AbortSignal;
  /** Overrides the parse time limit for this file. */
  timeoutMs?: number;
  /** Hears of each page read by OCR (for a heartbeat, or a progress display). */
  onProgress?: (ocrPage: number, pageCount?: number) => void;
}

interface Slot {
  thread: Worker;
  busy: boolean;
  /** Busy with a large document (see LARGE_BYTES). */
  large: boolean;
  /** Stops the thread when it has been idle for `idleThreadMs`; cleared when it is taken. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * A request with more bytes than this (a file, or a parsed document's JSON) is a large document's:
 * those hold at most all threads but one, so small files never wait behind large ones for minutes.
 */
export const LARGE_BYTES = 1024 * 1024;

const THREAD_FILE = join(__dirname, `parse.thread${extname(__filename)}`);

const WARM_UP: ParseInput = {
  fileName: 'warm-up.md',
  mediaType: 'text/markdown',
  data: Buffer.from('# Warm-up\n\nA paragraph that loads the parsers.\n'),
};

/**
 * Runs parsers in worker threads with a heap limit and a time limit, so a hostile or broken file
 * (a decompression bomb, a parser stuck in a loop, runaway recursion) fails its own document and
 * never the worker process. Threads are reused between parses and replaced when one is stopped.
 *
 * The threads chunk documents too (`chunk`, `parseAndChunk`), with a time limit of its own:
 * chunking costs time in proportion to a document's length, and the worker's event loop, which
 * serves every project's activities, heartbeats and metrics, must never wait for it. The parsed
 * document crosses between threads as JSON bytes, moved rather than copied; only the chunks come
 * back as objects.
 */
export class ParseSandbox {
  private readonly slots: Slot[] = [];
  private readonly waiting: { large: boolean; wake: () => void }[] = [];
  private recycledCount = 0;

  /** `documentLimits`: what the parsers hold every document to (pages, rows, pixels, text …). */
  constructor(
    private readonly limits: ParseLimits = DEFAULT_PARSE_LIMITS,
    private readonly documentLimits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  /**
   * Parses `input` in a thread; `timeoutMs` overrides the default limit for this file, and
   * `onProgress` hears of each page read by OCR (for a heartbeat, or a progress display).
   */
  async parse(input: ParseInput, options: SandboxOptions = {}): Promise<ParsedDocument> {
    return (await this.request(fileRequest(input), options)).document!;
  }

  /** Parses `input` in a thread; the document comes back as JSON, to be stored as it is. */
  async parseToJson(input: ParseInput, options: SandboxOptions = {}): Promise<ParsedFile> {
    const { json, summary } = await this.request({ ...fileRequest(input), json: true }, options);
    return { json: json!, summary };
  }

  /** Chunks a parsed document given as JSON (as `parseToJson` gave it) in a thread. */
  async chunk(
    parsed: { fileName: string; json: Uint8Array },
    job: ChunkJob,
    options: Pick<SandboxOptions, 'signal'> = {},
  ): Promise<ChunkedFile> {
    return chunked(
      await this.request(
        {
          fileName: parsed.fileName,
          mediaType: 'application/json',
          data: parsed.json,
          parsed: true,
          chunk: job,
        },
        options,
      ),
    );
  }

  /** Parses `input` and chunks the document in one thread call: the document never leaves the thread. */
  async parseAndChunk(input: ParseInput, job: ChunkJob, options: SandboxOptions = {}): Promise<ChunkedFile> {
    return chunked(await this.request({ ...fileRequest(input), chunk: job }, options));
  }

  private async request(request: ParseRequest, options: SandboxOptions): Promise<ParseResult> {
    const slot = await this.acquire(request.data.byteLength > LARGE_BYTES);
    try {
      return await this.run(
        slot,
        request,
        options.signal,
        options.timeoutMs ?? this.limits.timeoutMs,
        options.onProgress,
      );
    } finally {
      this.release(slot);
    }
  }

  /**
   * Starts every thread and has each parse a small Markdown file, so the first documents of a sync
   * do not wait while the threads load their parsers (seconds on a busy machine). Never throws:
   * a thread that fails here is replaced at the first real parse.
   */
  async warm(): Promise<void> {
    const slots: Slot[] = [];
    while (slots.length < this.limits.threads) slots.push(await this.acquire());
    await Promise.all(
      slots.map(async (slot) => {
        try {
          await this.run(slot, fileRequest(WARM_UP), undefined, this.limits.timeoutMs);
        } catch {
          // Discarded already when the thread failed; nothing to report for a warm-up.
        } finally {
          this.release(slot);
        }
      }),
    );
  }

  /** Threads running now (started and not stopped). */
  get threadCount(): number {
    return this.slots.length;
  }

  /** Threads replaced because their memory grew past `recycleThreadMb`, since the start. */
  get recycledThreads(): number {
    return this.recycledCount;
  }

  /** Stops every thread (at shutdown). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) clearTimeout(slot.idleTimer);
    await Promise.all(slots.map((slot) => slot.thread.terminate()));
  }

  private run(
    slot: Slot,
    request: ParseRequest,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    onProgress?: (ocrPage: number, pageCount?: number) => void,
  ): Promise<ParseResult> {
    const { thread } = slot;
    const { fileName } = request;
    const started = Date.now();
    const maxOcrMs = Math.max(timeoutMs, this.limits.maxOcrDocumentMs ?? DEFAULT_MAX_OCR_DOCUMENT_MS);
    const chunkTimeoutMs = this.limits.chunkTimeoutMs ?? DEFAULT_CHUNK_TIMEOUT_MS;
    let chunking = request.parsed === true;
    let allowedMs = chunking ? chunkTimeoutMs : timeoutMs;
    return new Promise<ParseResult>((resolve, reject) => {
      const finish = (outcome: () => void, discard: boolean) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (discard) this.discard(slot);
        outcome();
      };
      const onMessage = (reply: ParseReply) => {
        if ('chunking' in reply) {
          // Parsed: chunking starts, under its own limit.
          chunking = true;
          allowedMs = chunkTimeoutMs;
          clearTimeout(timer);
          timer = setTimeout(onTimeout, chunkTimeoutMs);
          return;
        }
        if ('progress' in reply) {
          // Progress renews the time limit, within the cap for OCR'd documents.
          const elapsed = Date.now() - started;
          const remaining = Math.min(timeoutMs, maxOcrMs - elapsed);
          clearTimeout(timer);
          allowedMs = elapsed + remaining;
          timer = setTimeout(onTimeout, remaining);
          onProgress?.(reply.progress.ocrPage, reply.progress.pageCount);
          return;
        }
        // A thread that grew past the bound is replaced; its answer stands.
        const grown = reply.memoryMb > (this.limits.recycleThreadMb ?? DEFAULT_RECYCLE_THREAD_MB);
        if (grown) this.recycledCount++;
        finish(() => (reply.ok ? resolve(reply) : reject(replyError(fileName, reply))), grown);
      };
      const onError = (error: Error & { code?: string }) =>
        finish(() => reject(threadError(fileName, error, this.limits, chunking)), true);
      const onExit = (code: number) =>
        finish(
          () =>
            reject(
              new TroveError(
                TroveErrorCode.Internal,
                `the parsing thread exited (code ${code}) on ${fileName}`,
              ),
            ),
          true,
        );
      const onAbort = () =>
        finish(
          () =>
            reject(
              new TroveError(
                TroveErrorCode.Internal,
                `${chunking ? 'chunking' : 'parsing'} ${fileName} was cancelled`,
              ),
            ),
          true,
        );
      const onTimeout = () =>
        finish(
          () =>
            reject(
              chunking
                ? new PermanentDocumentError(
                    TroveErrorCode.ParseLimitExceeded,
                    `${fileName}: chunking took longer than ${allowedMs / 1000} s and was stopped ` +
                      '(TROVE_CHUNK_TIMEOUT_MS raises the limit)',
                  )
                : new PermanentDocumentError(
                    TroveErrorCode.ParseLimitExceeded,
                    `${fileName}: parsing took longer than ${Math.round(allowedMs / 1000)} s and was stopped`,
                  ),
            ),
          true,
        );
      let timer = setTimeout(onTimeout, allowedMs);
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A copy the thread then owns: the caller's buffer stays usable.
      const data = new Uint8Array(
        request.data.buffer,
        request.data.byteOffset,
        request.data.byteLength,
      ).slice();
      thread.postMessage({ ...request, data } satisfies ParseRequest, [data.buffer]);
    });
  }

  private async acquire(large = false): Promise<Slot> {
    for (;;) {
      if (this.mayStart(large)) {
        const idle = this.slots.find((slot) => !slot.busy);
        if (idle) {
          clearTimeout(idle.idleTimer);
          idle.busy = true;
          idle.large = large;
          return idle;
        }
        if (this.slots.length < this.limits.threads) {
          const slot = { thread: this.spawn(), busy: true, large };
          this.slots.push(slot);
          return slot;
        }
      }
      await new Promise<void>((wake) => this.waiting.push({ large, wake }));
    }
  }

  /** A large document's request starts only while fewer than all threads but one hold large ones. */
  private mayStart(large: boolean): boolean {
    if (!large) return true;
    const holding = this.slots.filter((slot) => slot.busy && slot.large).length;
    return holding < Math.max(1, this.limits.threads - 1);
  }

  /** Frees the slot and wakes the first waiting request that may start now. */
  private release(slot: Slot): void {
    slot.busy = false;
    slot.large = false;
    if (this.slots.includes(slot)) {
      const idleMs = this.limits.idleThreadMs ?? DEFAULT_IDLE_THREAD_MS;
      slot.idleTimer = setTimeout(() => {
        if (!slot.busy) this.discard(slot);
      }, idleMs).unref();
    }
    const next = this.waiting.findIndex((waiter) => this.mayStart(waiter.large));
    if (next >= 0) this.waiting.splice(next, 1)[0].wake();
  }

  private spawn(): Worker {
    // TypeScript sources (tests, `node -r @swc-node/register`) need the compiler hook in the thread too.
    const typescript = THREAD_FILE.endsWith('.ts');
    // The compiler's native module frees its state with the last thread that loaded it, and the
    // next thread to load it crashes the process: this thread keeps it loaded (as `-r
    // @swc-node/register` already does in the api and the worker; test runners do not).
    if (typescript) require('@swc/core');
    const execArgv = typescript ? ['-r', '@swc-node/register'] : [];
    const thread = new Worker(THREAD_FILE, {
      execArgv,
      workerData: { documentLimits: this.documentLimits } satisfies ParseThreadData,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxMemoryMb },
      stdout: false,
      stderr: false,
    });
    // An idle thread must not keep the process alive.
    thread.unref();
    return thread;
  }

  private discard(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.thread.terminate();
  }
}

function replyError(fileName: string, reply: Extract<ParseReply, { ok: false }>): Error {
  if (reply.code) return new TroveError(reply.code, reply.message, { permanent: reply.permanent });
  return new TroveError(TroveErrorCode.ParseFailed, `${fileName}: the parser failed (${reply.message})`, {
    permanent: reply.permanent,
  });
}

/** A request to parse the file `input`. */
function fileRequest(input: ParseInput): ParseRequest {
  return {
    fileName: input.fileName,
    mediaType: input.mediaType,
    data: input.data,
    ...(input.ocr === false && { ocr: false }),
  };
}

function threadError(
  fileName: string,
  error: Error & { code?: string },
  limits: ParseLimits,
  chunking: boolean,
): Error {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new PermanentDocumentError(
      TroveErrorCode.ParseLimitExceeded,
      `${fileName}: ${chunking ? 'chunking' : 'parsing'} needed more than ${limits.maxMemoryMb} MB of memory and was stopped`,
    );
  }
  return new TroveError(
    TroveErrorCode.Internal,
    `the parsing thread failed on ${fileName}: ${error.message}`,
  );
}
