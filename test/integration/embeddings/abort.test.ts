import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingProvider } from '@trove/embeddings';
import { expectEventually } from '../../support/services';
import { FakeOllama } from '../../fakes/ollama-fake';
import { SlowEmbedder } from '../../fakes/slow-embedder-fake';

// Both providers' official clients, against servers that never answer: only the caller's abort
// ends the request, and the server must see its connection closed.
const ollama = new FakeOllama({ 'multilingual-e5-small': 384 });
const openai = new SlowEmbedder();
const urls: Record<'ollama' | 'openai', string> = { ollama: '', openai: '' };

beforeAll(async () => {
  ollama.holdEmbeddings = true;
  urls.ollama = await ollama.start();
  urls.openai = await openai.start();
});
afterAll(async () => {
  await ollama.stop();
  await openai.stop();
});

describe.each(['openai', 'ollama'] as const)('%s provider: aborting an embedding', (kind) => {
  it('closes the request to the embedding server when the caller aborts', async () => {
    const provider = createEmbeddingProvider({
      provider: kind,
      baseUrl: urls[kind],
      profile: 'multilingual-e5-small',
      batchSize: 8,
      timeoutMs: 60_000,
    });
    const held = () => (kind === 'ollama' ? ollama.held : openai.requests);
    const before = held().length;
    const caller = new AbortController();
    const pending = provider.embed(['a slow query'], 'query', { signal: caller.signal });
    const request = await expectEventually(
      async () => {
        if (held().length === before) throw new Error('the server has not seen the request yet');
        return held().at(-1)!;
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    caller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    await expectEventually(
      async () => {
        if (!request.closed) throw new Error('the request is still open');
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
  });
});
