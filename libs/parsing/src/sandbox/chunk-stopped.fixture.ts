/**
 * Run by parse-sandbox.spec.ts in a plain Node process: a document parsed within the parse limit
 * whose chunking exceeds the chunking limit (1 ms), then a normal parse by the thread that replaces
 * the stopped one.
 */
import { isTroveError } from '@trove/domain';
import { ParseSandbox } from './parse-sandbox';

async function main() {
  const sandbox = new ParseSandbox({ timeoutMs: 60_000, chunkTimeoutMs: 1, maxMemoryMb: 256, threads: 1 });
  const result: Record<string, unknown> = {};
  try {
    await sandbox.parseAndChunk(
      {
        fileName: 'a.md',
        mediaType: 'text/markdown',
        data: Buffer.from('# T\n\n' + 'word '.repeat(100_000)),
      },
      { options: { targetTokens: 100, overlapTokens: 0 }, context: { documentId: 'd', projectId: 'p' } },
    );
    result.stopped = 'chunked';
  } catch (error) {
    result.stopped = isTroveError(error)
      ? { code: error.code, permanent: error.permanent, message: error.message }
      : String(error);
  }
  const doc = await sandbox.parse({
    fileName: 'b.md',
    mediaType: 'text/markdown',
    data: Buffer.from('# Still\n\nfine'),
  });
  result.afterwards = doc.title;
  await sandbox.close();
  process.stdout.write(JSON.stringify(result));
}

void main();
