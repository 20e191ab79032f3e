import { parentPort, workerData } from 'node:worker_threads';
import { isTroveError, TroveErrorCode } from '@trove/domain';
import { onOcrPage } from '../ocr/ocr-pages';
import { ParserRegistry } from '../parser-registry';
import type { ParseReply, ParseRequest, ParseThreadData } from './parse-sandbox';

/** The parsing thread: one request at a time, the reply carries the document or a typed error. */
const registry = ParserRegistry.default((workerData as ParseThreadData).documentLimits);
// Each page read by OCR is progress: the sandbox renews the parse's time limit.
onOcrPage((ocrPage, pageCount) =>
  parentPort!.postMessage({ progress: { ocrPage, pageCount } } satisfies ParseReply),
);

parentPort!.on('message', async (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    const document = await registry.parse({
      fileName: request.fileName,
      mediaType: request.mediaType,
      data: Buffer.from(request.data),
      ...(request.ocr === false && { ocr: false }),
    });
    reply = { ok: true, document };
  } catch (error) {
    if (isTroveError(error)) {
      reply = { ok: false, code: error.code, message: error.message, permanent: error.permanent };
    } else if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // Runaway recursion on this input: trying again cannot help.
      reply = {
        ok: false,
        code: TroveErrorCode.ParseFailed,
        message: `${request.fileName} is nested too deeply to parse`,
        permanent: true,
      };
    } else {
      reply = { ok: false, message: (error as Error)?.message ?? String(error), permanent: false };
    }
  }
  parentPort!.postMessage(reply);
});
