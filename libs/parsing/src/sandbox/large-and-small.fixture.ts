/**
 * Run by parse-sandbox.spec.ts in a plain Node process: two large documents parsed and chunked
 * at once by a sandbox of two threads, and a small file sent after them; prints the order in
 * which the three ended.
 */
import { LARGE_BYTES, ParseSandbox } from './parse-sandbox';

async function main() {
  const sandbox = new ParseSandbox({ timeoutMs: 60_000, maxMemoryMb: 512, threads: 2 });
  await sandbox.warm();
  const sentences = Array.from({ length: 40_000 }, (_, i) => `Sentence ${i} says something about retrieval.`);
  const large = { fileName: 'large.txt', mediaType: 'text/plain', data: Buffer.from(sentences.join(' ')) };
  if (large.data.length <= LARGE_BYTES) throw new Error('not a large document');
  const job = {
    options: { targetTokens: 200, overlapTokens: 20 },
    context: { documentId: 'd', projectId: 'p' },
  };
  const finished: string[] = [];
  const first = sandbox.parseAndChunk(large, job).then(() => finished.push('first large'));
  const second = sandbox.parseAndChunk(large, job).then(() => finished.push('second large'));
  await sandbox
    .parse({
      fileName: 'small.md',
      mediaType: 'text/markdown',
      data: Buffer.from('# Small\n\nA small file.'),
    })
    .then(() => finished.push('small'));
  await Promise.all([first, second]);
  await sandbox.close();
  process.stdout.write(JSON.stringify(finished));
}

void main();
