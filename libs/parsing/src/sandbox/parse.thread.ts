import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { isTroveError, TroveErrorCode } from '@trove/domain';
import { onOcrPage } from '../ocr/ocr-pages';
import { ParserRegistry } from '../parser-registry';
import { type ParseRequest, runDocumentSteps } from './document-steps';
import type { ParseReply, ParseThreadData } from './parse-sandbox';

/**
 * The parsing thread: one request at a time (parse, chunk, or both), every document held to the
 * sandbox's document limits; the reply carries the result or a typed error. A parsed document
 * sent as JSON bytes is moved to the caller, not copied.
 */
const registry = ParserRegistry.default((workerData as ParseThreadData).documentLimits);
// Each page read by OCR is progress: the sandbox renews the parse's time limit.
onOcrPage((ocrPage, pageCount) =>
  parentPort!.postMessage({ progress: { ocrPage, pageCount } } satisfies ParseReply),
);

/** This thread's V8 heap and the memory its objects hold outside it (buffers), in MB. */
function memoryMb(): number {
  const { total_heap_size, external_memory } = getHeapStatistics();
  return Math.round((total_heap_size + external_memory) / 2 ** 20);
}

parentPort!.on('message', async (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    const result = await runDocumentSteps(registry, request, () =>
      parentPort!.postMessage({ chunking: true } satisfies ParseReply),
    );
    reply = { ok: true, ...result, memoryMb: 0 };
  } catch (error) {
    if (isTroveError(error)) {
      reply = {
        ok: false,
        code: error.code,
        message: error.message,
        permanent: error.permanent,
        memoryMb: 0,
      };
    } else if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // Runaway recursion on this input: trying again cannot help.
      reply = {
        ok: false,
        code: TroveErrorCode.ParseFailed,
        message: `${request.fileName} is nested too deeply to parse`,
        permanent: true,
        memoryMb: 0,
      };
    } else {
      reply = {
        ok: false,
        message: (error as Error)?.message ?? String(error),
        permanent: false,
        memoryMb: 0,
      };
    }
  }
  // Measured once the request's own objects are unreachable (a transferred result is not counted).
  reply.memoryMb = memoryMb();
  const transfer = reply.ok && reply.json ? [reply.json.buffer as ArrayBuffer] : [];
  parentPort!.postMessage(reply, transfer);
});
