import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveApiError } from './api-error';
import { TroveClient } from './trove-client';

// A local server sending the export as the api does: lines split across writes, as TCP may.
let server: Server;
let client: TroveClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/v1/projects/p-viewer/feedback.jsonl') {
      res.statusCode = 403;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'this API key may not do that' } }));
      return;
    }
    res.setHeader('content-type', 'application/x-ndjson');
    res.setHeader('x-total-count', '3');
    if (req.url === '/v1/projects/p-broken/feedback.jsonl') {
      // The api cuts the connection when a page cannot be read (here once the first lines are out).
      res.write('{"id":"fbk_1"}\n{"id":"fb', () => res.destroy());
      return;
    }
    res.write('{"id":"fbk_1"}\n{"id":"fb');
    res.write('k_2"}\n\n{"id":"fbk_3"}');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  client = new TroveClient({ apiUrl: `http://127.0.0.1:${port}`, apiKey: 'k' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function all(lines: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe('exportFeedback', () => {
  it('gives the count first, then each line whole, wherever the writes split them', async () => {
    const { count, lines } = await client.exportFeedback('p');
    expect(count).toBe(3);
    expect(await all(lines)).toEqual(['{"id":"fbk_1"}', '{"id":"fbk_2"}', '{"id":"fbk_3"}']);
  });

  it("throws the API's refusal before any line", async () => {
    await expect(client.exportFeedback('p-viewer')).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('throws when the download breaks off, after the lines that came whole', async () => {
    const { lines } = await client.exportFeedback('p-broken');
    const seen: string[] = [];
    const error = await (async () => {
      for await (const line of lines) seen.push(line);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['{"id":"fbk_1"}']);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ code: 'NETWORK', message: 'the feedback export broke off after 1 votes' });
  });
});
