import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import { MEDIA_TYPES, SearchMode } from '@trove/domain';
import type { SearchHit } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { PdfParser } from '@trove/parsing';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { fixtureDocument } from '@trove/testing';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

/**
 * A born-digital statistics table (FBI NICS checks, November 2015: 55 rows, 25 columns under two
 * header rows) parsed, chunked with the default settings, embedded and indexed as the ingest
 * pipeline does. A query naming a row label and a column header must find the chunk holding that
 * cell, with the header row, even where the row sits in a later chunk of the table.
 */
const prefix = uniqueName('pdf-table');
const embedder = createEmbeddingProvider(workerConfig(prefix).embedding);
// The default chunking settings, as a project without overrides has them.
const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
let es: Client;
let search: HybridSearch;
let tableChunks: number;
let rowsPerState: number[];

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  const index = new ChunkIndex(es, prefix, embedder.dimensions);
  search = new HybridSearch(es, prefix, embedder);
  await index.ensure();
  const doc = await new PdfParser({ ocr: false }).parse({
    fileName: 'nics-background-checks-2015-11.pdf',
    mediaType: MEDIA_TYPES.pdf,
    data: readFileSync(fixtureDocument('nics-background-checks-2015-11.pdf')),
  });
  const chunks = chunker.chunk(doc, { projectId: 'p1', documentId: 'nics' });
  // Every chunk of the table starts with its header row; none is the header alone.
  tableChunks = chunks.filter(
    (c) =>
      c.text.startsWith('| State / Territory | Permit |') &&
      /^\| [A-Z][a-z]+/m.test(c.text.split('\n').slice(1).join('\n')),
  ).length;
  // Each row in exactly one chunk: none lost, none repeated by overlap.
  rowsPerState = ['Alabama', 'Texas', 'Wyoming', 'Totals'].map(
    (state) =>
      chunks.filter((c) => c.text.split('\n').some((line) => line.startsWith(`| ${state} |`))).length,
  );
  const vectors = await embedder.embed(
    chunks.map((c) => Chunker.embeddingText(c)),
    'passage',
  );
  await index.upsert(
    chunks.map((c, i) => ({ ...c, embedding: vectors[i] })),
    embedder.modelId,
  );
  await index.refresh();
}, 180_000);

afterAll(async () => {
  await es?.close();
  await dropTestData(prefix);
});

async function top(query: string, mode: SearchMode): Promise<SearchHit> {
  const hits = await search.search({ projectId: 'p1', query, limit: 1, mode });
  expect(hits).toHaveLength(1);
  return hits[0];
}

describe('a PDF statistics table in search', () => {
  it('is cut into several chunks, each starting with the header row and holding rows', () => {
    expect(tableChunks).toBeGreaterThan(2);
    expect(rowsPerState).toEqual([1, 1, 1, 1]);
  });

  it.each([
    ['Texas Pre-Pawn Long Gun', '| Texas |', 'Pre-Pawn Long Gun'],
    ['Wyoming permit checks', '| Wyoming |', '| State / Territory | Permit |'],
    [
      'Return to Seller - Private Sale handgun Washington',
      '| Washington |',
      'Return to Seller - Private Sale Handgun',
    ],
  ])('%s: the chunk with that row and the column header', async (query, row, header) => {
    for (const mode of [SearchMode.KEYWORD, SearchMode.HYBRID]) {
      const hit = await top(query, mode);
      expect(hit.page).toBe(1);
      expect(hit.text).toContain(row);
      expect(hit.text).toContain(header);
    }
  });
});
