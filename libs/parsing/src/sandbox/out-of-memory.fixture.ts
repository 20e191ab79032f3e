/** Run by parse-sandbox.spec.ts in a plain Node process: one parse over the heap limit, then a normal one. */
import { isTroveError } from '@trove/domain';
import { ParseSandbox } from './parse-sandbox';

async function main() {
  const sandbox = new ParseSandbox({ timeoutMs: 60_000, maxMemoryMb: 96, threads: 1 });
  const result: Record<string, unknown> = {};
  try {
    await sandbox.parse({
      fileName: 'huge.html',
      mediaType: 'text/html',
      data: Buffer.from('<p>' + 'word '.repeat(4_000_000)),
    });
    result.huge = 'parsed';
  } catch (error) {
    result.huge = isTroveError(error)
      ? { code: error.code, permanent: error.permanent, message: error.message }
      : String(error);
  }
  const doc = await sandbox.parse({
    fileName: 'a.md',
    mediaType: 'text/markdown',
    data: Buffer.from('# Still\n\nworking'),
  });
  result.afterwards = doc.title;
  await sandbox.close();
  process.stdout.write(JSON.stringify(result));
}

void main();
