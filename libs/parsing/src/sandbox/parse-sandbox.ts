import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentLimits, ParsedDocument, ParseInput } from '@trove/domain';
import { DEFAULT_DOCUMENT_LIMITS, PermanentDocumentError, TroveError, TroveErrorCode } from '@trove/domain';
// The image parser decodes with sharp (libvips) in the parsing threads. Loaded here too, so its
// shared libraries stay loaded when a thread exits or is stopped (glibc would unload them
// under the other threads' feet otherwise; sharp's documentation asks for this).
import 'sharp';

export interface ParseLimits {
  /**
   * A parse running longer than this is stopped and the document fails. Each page read by OCR
   * renews it (a long scan makes progress page by page), up to `maxOcrDocumentMs` in all.
   */
  timeoutMs: number;
  /** The longest a document read by OCR may take, however steadily its pages progress. */
  maxOcrDocumentMs?: number;
  /** Heap limit of a parsing thread; a file that needs more fails instead of the worker. */
  maxMemoryMb: number;
  /** Parsing threads kept at most (one parse each at a time). */
  threads: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { timeoutMs: 240_000, maxMemoryMb: 1024, threads: 2 };
/** Under the ingest workflow's 10 minutes for the parse step. */
const DEFAULT_MAX_OCR_DOCUMENT_MS = 9 * 60_000;

/** @internal what a parsing thread is started with */
export interface ParseThreadData {
  documentLimits: DocumentLimits;
}

/** @internal the message to a parsing thread */
export interface ParseRequest {
  fileName: string;
  mediaType: string;
  data: Uint8Array;
  ocr?: boolean;
}

/** @internal a parsing thread's answer, or news of its progress (a page read by OCR) */
export type ParseReply =
  | { ok: true; document: ParsedDocument }
  | { ok: false; code?: TroveErrorCode; message: string; permanent: boolean }
  | { progress: { ocrPage: number; pageCount?: number } };

interface Slot {
  thread: Worker;
  busy: boolean;
}

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
 */
export class ParseSandbox {
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];

  /** `documentLimits`: what the parsers hold every document to (pages, rows, pixels, text …). */
  constructor(
    private readonly limits: ParseLimits = DEFAULT_PARSE_LIMITS,
    private readonly documentLimits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  /**
   * Parses `input` in a thread; `timeoutMs` overrides the default limit for this file, and
   * `onProgress` hears of each page read by OCR (for a heartbeat, or a progress display).
   */
  async parse(
    input: ParseInput,
    options: {
      signal?: AbortSignal;
      timeoutMs?: number;
      onProgress?: (ocrPage: number, pageCount?: number) => void;
    } = {},
  ): Promise<ParsedDocument> {
    const slot = await this.acquire();
    try {
      return await this.run(
        slot,
        input,
        options.signal,
        options.timeoutMs ?? this.limits.timeoutMs,
        options.onProgress,
      );
    } finally {
      slot.busy = false;
      this.waiting.shift()?.();
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
          await this.run(slot, WARM_UP, undefined, this.limits.timeoutMs);
        } catch {
          // Discarded already when the thread failed; nothing to report for a warm-up.
        } finally {
          slot.busy = false;
          this.waiting.shift()?.();
        }
      }),
    );
  }

  /** Threads running now (started and not stopped). */
  get threadCount(): number {
    return this.slots.length;
  }

  /** Stops every thread (at shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((slot) => slot.thread.terminate()));
  }

  private run(
    slot: Slot,
    input: ParseInput,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    onProgress?: (ocrPage: number, pageCount?: number) => void,
  ): Promise<ParsedDocument> {
    const { thread } = slot;
    const started = Date.now();
    const maxOcrMs = Math.max(timeoutMs, this.limits.maxOcrDocumentMs ?? DEFAULT_MAX_OCR_DOCUMENT_MS);
    let allowedMs = timeoutMs;
    return new Promise<ParsedDocument>((resolve, reject) => {
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
        finish(() => (reply.ok ? resolve(reply.document) : reject(replyError(input.fileName, reply))), false);
      };
      const onError = (error: Error & { code?: string }) =>
        finish(() => reject(threadError(input.fileName, error, this.limits)), true);
      const onExit = (code: number) =>
        finish(
          () =>
            reject(
              new TroveError(
                TroveErrorCode.Internal,
                `the parsing thread exited (code ${code}) on ${input.fileName}`,
              ),
            ),
          true,
        );
      const onAbort = () =>
        finish(
          () => reject(new TroveError(TroveErrorCode.Internal, `parsing ${input.fileName} was cancelled`)),
          true,
        );
      const onTimeout = () =>
        finish(
          () =>
            reject(
              new PermanentDocumentError(
                TroveErrorCode.ParseLimitExceeded,
                `${input.fileName}: parsing took longer than ${Math.round(allowedMs / 1000)} s and was stopped`,
              ),
            ),
          true,
        );
      let timer = setTimeout(onTimeout, timeoutMs);
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      const data = new Uint8Array(input.data.buffer, input.data.byteOffset, input.data.byteLength).slice();
      const request: ParseRequest = {
        fileName: input.fileName,
        mediaType: input.mediaType,
        data,
        ...(input.ocr === false && { ocr: false }),
      };
      thread.postMessage(request, [data.buffer]);
    });
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      const idle = this.slots.find((slot) => !slot.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (this.slots.length < this.limits.threads) {
        const slot = { thread: this.spawn(), busy: true };
        this.slots.push(slot);
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private spawn(): Worker {
    // TypeScript sources (tests, `node -r @swc-node/register`) need the compiler hook in the thread too.
    const execArgv = THREAD_FILE.endsWith('.ts') ? ['-r', '@swc-node/register'] : [];
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

function threadError(fileName: string, error: Error & { code?: string }, limits: ParseLimits): Error {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new PermanentDocumentError(
      TroveErrorCode.ParseLimitExceeded,
      `${fileName}: parsing needed more than ${limits.maxMemoryMb} MB of memory and was stopped`,
    );
  }
  return new TroveError(
    TroveErrorCode.Internal,
    `the parsing thread failed on ${fileName}: ${error.message}`,
  );
}
