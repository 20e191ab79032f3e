import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectsDocument } from './gql/graphql';
import { TroveClient } from './trove-client';

// A local HTTP server standing in for the api's wire format, to check what the client sends and
// how it reads answers; the client against the real api is covered by the CLI and MCP e2e tests.
let server: Server;
let url: string;
const seen: { headers: IncomingMessage['headers']; body: Buffer; path: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/graphql' && req.headers['x-api-key'] === 'good') {
        res.end(JSON.stringify({ data: { projects: [{ id: 'p1', name: 'Notes' }] } }));
      } else if (req.url === '/graphql') {
        res.end(
          JSON.stringify({
            errors: [{ message: 'the API key is not valid', extensions: { code: 'UNAUTHENTICATED' } }],
          }),
        );
      } else {
        res.statusCode = 202;
        res.end(JSON.stringify({ id: 'd1', fileName: 'a.md', status: 'PENDING' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('TroveClient', () => {
  it('sends the key and the operation, and returns the data', async () => {
    const client = new TroveClient({ apiUrl: url, apiKey: 'good' });
    const data = await client.request(ProjectsDocument);
    expect(data.projects[0]!.name).toBe('Notes');
    const request = seen.at(-1)!;
    expect(request.headers['x-api-key']).toBe('good');
    expect(JSON.parse(request.body.toString()).query).toContain('projects');
  });

  it("throws the API's error code and message", async () => {
    const client = new TroveClient({ apiUrl: url, apiKey: 'bad' });
    await expect(client.request(ProjectsDocument)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'the API key is not valid',
      kind: 'auth',
    });
  });

  it('names the address when the API cannot be reached', async () => {
    const client = new TroveClient({ apiUrl: 'http://127.0.0.1:9', apiKey: 'good' });
    await expect(client.request(ProjectsDocument)).rejects.toMatchObject({
      code: 'NETWORK',
      kind: 'unavailable',
    });
  });

  it('streams an upload as multipart and reports every byte sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-client-'));
    const file = join(dir, 'заметки "1".md');
    const content = Buffer.alloc(200_000, 'a');
    writeFileSync(file, content);
    const progress: number[] = [];
    const client = new TroveClient({ apiUrl: url, apiKey: 'good' });
    const uploaded = await client.uploadDocument('p 1', file, (sent, total) => {
      expect(total).toBe(content.length);
      progress.push(sent);
    });
    expect(uploaded).toMatchObject({ id: 'd1', status: 'PENDING' });
    expect(progress.at(-1)).toBe(content.length);
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v1/projects/p%201/documents');
    expect(Number(request.headers['content-length'])).toBe(request.body.length);
    const text = request.body.toString('utf8');
    expect(text).toContain('name="file"; filename="заметки _1_.md"');
    expect(text).toContain(`filename*=UTF-8''${encodeURIComponent('заметки "1".md')}`);
    expect(request.body.includes(content)).toBe(true);
  });
});
