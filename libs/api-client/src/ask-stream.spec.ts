import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveApiError } from './api-error';
import { readAskEvents, type AskStreamEvent } from './ask-stream';
import { TroveClient } from './trove-client';

// A local server speaking the stream's wire format: events split across writes, as TCP may.
let server: Server;
let url: string;
let lastBody = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      lastBody = Buffer.concat(chunks).toString();
      if (req.url === '/v1/projects/missing/ask/stream') {
        res.statusCode = 404;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: { code: 'PROJECT_NOT_FOUND', message: 'no project missing' } }));
        return;
      }
      res.setHeader('content-type', 'text/event-stream');
      const passage = {
        marker: 1,
        chunkId: 'c1',
        documentId: 'd1',
        title: 'Runbook',
        headingPath: ['Rollback'],
      };
      res.write(`event: retrieval\ndata: ${JSON.stringify({ passages: [passage] })}\n\n`);
      res.write('event: delta\ndata: {"text":"Run the ');
      setTimeout(() => {
        res.write(
          'rollback [1].","attempt":1}\n\nevent: delta\r\ndata: {"text":" Done.","attempt":1}\r\n\r\n',
        );
        if (req.url === '/v1/projects/broken/ask/stream') {
          res.end('event: error\ndata: {"code":"LLM_UNAVAILABLE","message":"the model did not answer"}\n\n');
        } else {
          const done = { answer: 'Run the rollback [1]. Done.', mode: 'EXTRACTIVE', citations: [] };
          res.end(`: keep-alive\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`);
        }
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function collect(events: AsyncIterable<AskStreamEvent>): Promise<AskStreamEvent[]> {
  const all: AskStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('askStream', () => {
  it('yields retrieval, deltas and done in order, whatever the write boundaries', async () => {
    const client = new TroveClient({ apiUrl: url, apiKey: 'k' });
    const events = await collect(client.askStream('p1', { question: 'How do I roll back?', topK: 3 }));
    expect(events.map((e) => e.type)).toEqual(['retrieval', 'delta', 'delta', 'done']);
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe('Run the rollback [1]. Done.');
    const done = events.at(-1)!;
    expect(done.type === 'done' && done.result.mode).toBe('EXTRACTIVE');
    expect(JSON.parse(lastBody)).toEqual({ question: 'How do I roll back?', topK: 3 });
  });

  it('throws the API error of a refused request, and of an error event', async () => {
    const client = new TroveClient({ apiUrl: url, apiKey: 'k' });
    const refused = await collect(client.askStream('missing', { question: 'q' })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TroveApiError);
    expect((refused as TroveApiError).kind).toBe('not-found');
    const failed = await collect(client.askStream('broken', { question: 'q' })).catch((e: unknown) => e);
    expect((failed as TroveApiError).code).toBe('LLM_UNAVAILABLE');
  });

  it('reads a final event that lacks its blank line', async () => {
    async function* body() {
      yield new TextEncoder().encode('event: delta\ndata: {"text":"a","attempt":2}');
    }
    expect(await collect(readAskEvents(body()))).toEqual([{ type: 'delta', text: 'a', attempt: 2 }]);
  });
});
