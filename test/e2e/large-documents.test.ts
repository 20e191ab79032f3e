import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { IndexNames } from '@trove/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderStub } from '../../apps/embedder-stub/src/embedder-stub';
import { canaryValue } from '../support/canary';
import { oneParagraph, oneTableCsv } from '../support/large-files';
import { ES_URL, expectEventually } from '../support/services';
import { type DocumentView, TroveStack } from '../support/stack';

/**
 * Large uploads with the real api and worker, at the default document limits: a 5 MB text of one
 * paragraph and a 5 MB CSV of one table become READY; a 40 MB CSV of one field without a space is
 * refused by the text limit with a reason, and an 8 MB one (under the limit) is cut into chunks no
 * larger than the target. Chunking runs in the parsing threads, in time linear in the text, so
 * meanwhile the worker answers its /metrics and another project's small upload becomes READY.
 * The stub embedder answers at once: the time is Trove's own (the real model's time for the 5 MB
 * file is in BENCHMARKS.md, "Large documents").
 */
const TARGET = 400;
const METRICS_TOKEN = canaryValue('metrics-token');
const embedder = new EmbedderStub({ dimensions: 384, model: 'multilingual-e5-small-q4' });
let stack: TroveStack;
let large: string;
let neighbour: string;

beforeAll(async () => {
  const url = await embedder.start();
  stack = new TroveStack({
    TROVE_EMBEDDING_BASE_URL: url,
    TROVE_MAX_UPLOAD_BYTES: String(50 * 1024 * 1024),
    TROVE_CHUNK_TARGET_TOKENS: String(TARGET),
    TROVE_CHUNK_OVERLAP_TOKENS: '40',
    // Fewer, larger embedding steps for documents of thousands of chunks.
    TROVE_EMBEDDING_BATCH_SIZE: '256',
    TROVE_METRICS_TOKEN: METRICS_TOKEN,
  });
  await stack.start();
  large = await stack.createProject('Large documents');
  neighbour = await stack.createProject('A neighbour');
});
afterAll(async () => {
  await stack?.stop();
  await embedder.stop();
});

/**
 * Scrapes the worker's /metrics every second until every document of `ids` is READY or FAILED;
 * each scrape must be answered (a worker whose event loop is busy answers none). Returns the
 * documents as they ended and how many scrapes were answered while one of them was still
 * ingesting. The bounds only keep a hang from lasting for ever.
 */
async function watchWorker(ids: string[]): Promise<{ documents: DocumentView[]; answered: number }> {
  const deadline = Date.now() + 900_000;
  let answered = 0;
  for (;;) {
    const documents = await Promise.all(ids.map(async (id) => (await stack.document(id))!));
    if (documents.every((d) => d.status === 'READY' || d.status === 'FAILED')) return { documents, answered };
    if (Date.now() > deadline) throw new Error(`still ingesting: ${JSON.stringify(documents)}`);
    const scrape = await fetch(stack.workerMetricsUrl(), {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(20_000),
    });
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE trove_');
    answered += 1;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The largest token count among a document's chunks, and how many there are, from the index. */
async function chunkSizes(documentId: string): Promise<{ count: number; maxTokens: number }> {
  const es = new Client({ node: ES_URL });
  try {
    const response = await es.search({
      index: new IndexNames(stack.name).chunks,
      size: 0,
      track_total_hits: true,
      query: { term: { documentId } },
      aggs: { maxTokens: { max: { field: 'tokenCount' } } },
    });
    const total = response.hits.total;
    return {
      count: typeof total === 'number' ? total : (total?.value ?? 0),
      maxTokens: (response.aggregations?.maxTokens as { value: number }).value,
    };
  } finally {
    await es.close();
  }
}

describe('large uploads', () => {
  it("a 5 MB one-paragraph text and a 5 MB one-table CSV become READY, while the worker answers and another project's upload becomes READY", async () => {
    const text = await stack.upload(large, 'one-paragraph.txt', oneParagraph(5 * 1024 * 1024));
    const table = await stack.upload(large, 'one-table.csv', oneTableCsv(5 * 1024 * 1024));
    expect([text.status, table.status]).toEqual([202, 202]);
    const ids = [String(text.body.id), String(table.body.id)];

    const small = await stack.upload(
      neighbour,
      'note.md',
      '# Otters\n\nOtters hold hands while they sleep.\n',
    );
    expect(await stack.settled(String(small.body.id), 120_000)).toMatchObject({ status: 'READY' });
    // It did not wait for them: at least one large document is still being ingested.
    const meanwhile = await Promise.all(ids.map(async (id) => (await stack.document(id))!.status));
    expect(meanwhile.filter((status) => status !== 'READY')).not.toEqual([]);

    const { documents, answered } = await watchWorker(ids);
    expect(answered).toBeGreaterThanOrEqual(3);
    for (const document of documents) {
      expect(document).toMatchObject({ status: 'READY', error: null });
      expect(document.chunkCount).toBeGreaterThan(1_000);
      const sizes = await expectEventually(async () => {
        const found = await chunkSizes(document.id);
        expect(found.count).toBe(document.chunkCount);
        return found;
      });
      expect(sizes.maxTokens).toBeLessThanOrEqual(TARGET);
    }
  });

  it("a 40 MB CSV of one field without a space FAILS by the text limit with a reason, an 8 MB one is cut into chunks no larger than the target, while another project's upload becomes READY", async () => {
    // Hex digits: one "word", which no cut at spaces can split. 40 MB is over the default text
    // limit (20 million characters): refused with a reason, never chunked nor retried. The 8 MB
    // one is under it: its chunking is what a cut at spaces cannot do.
    const over = await stack.upload(
      large,
      'one-field.csv',
      `${randomBytes(20 * 1024 * 1024).toString('hex')}\n`,
    );
    const under = await stack.upload(
      large,
      'one-field-8mb.csv',
      `${randomBytes(4 * 1024 * 1024).toString('hex')}\n`,
    );
    expect([over.status, under.status]).toEqual([202, 202]);
    const ids = [String(over.body.id), String(under.body.id)];

    const small = await stack.upload(neighbour, 'beaver.md', '# Beavers\n\nBeavers build dams of willow.\n');
    expect(await stack.settled(String(small.body.id), 120_000)).toMatchObject({ status: 'READY' });
    expect((await stack.document(ids[1]))!.status).not.toBe('READY');

    const {
      documents: [refused, chunked],
      answered,
    } = await watchWorker(ids);
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(refused).toMatchObject({ status: 'FAILED', chunkCount: 0 });
    expect(refused.error).toEqual({ code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) });
    // The reason names the limit and the setting that raises it.
    expect(refused.error!.message).toContain('TROVE_DOCUMENT_MAX_TEXT_CHARS');

    expect(chunked).toMatchObject({ status: 'READY', error: null });
    // About 1,600 hex digits a chunk: 8 MB makes thousands of them.
    expect(chunked.chunkCount).toBeGreaterThan(4_000);
    const sizes = await expectEventually(async () => {
      const found = await chunkSizes(chunked.id);
      expect(found.count).toBe(chunked.chunkCount);
      return found;
    });
    expect(sizes.maxTokens).toBeLessThanOrEqual(TARGET);
  });
});
