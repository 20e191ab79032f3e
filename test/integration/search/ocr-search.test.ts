import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import type { ParsedDocument } from '@trove/domain';
import { MEDIA_TYPES, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { OcrPool, ocrSettingsFromEnv } from '@trove/ocr';
import { ocrFixture } from '@trove/ocr/testing';
import { ImageParser } from '@trove/parsing';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

/** Scanned pages, read by OCR, chunked, embedded and indexed as the ingest pipeline does. */
const prefix = uniqueName('ocr');
const embedder = createEmbeddingProvider(workerConfig(prefix).embedding);
const chunker = new Chunker(new SegmenterTokenCounter(), { targetTokens: 200, overlapTokens: 20 });
const pool = new OcrPool(ocrSettingsFromEnv());
const parser = new ImageParser(() => pool);
let es: Client;
let index: ChunkIndex;
let search: HybridSearch;

async function ingest(documentId: string, doc: ParsedDocument): Promise<void> {
  const chunks = chunker.chunk(doc, { projectId: 'p1', documentId });
  const vectors = await embedder.embed(
    chunks.map((c) => Chunker.embeddingText(c)),
    'passage',
  );
  await index.upsert(
    chunks.map((c, i) => ({ ...c, embedding: vectors[i] })),
    embedder.modelId,
  );
}

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  search = new HybridSearch(es, prefix, embedder);
  await index.ensure();
  for (const name of ['russian', 'english', 'chinese'] as const) {
    const doc = await parser.parse({
      fileName: `${name}-scan.png`,
      mediaType: MEDIA_TYPES.png,
      data: ocrFixture(name).image,
    });
    await ingest(`${name}-scan`, doc);
  }
  await index.refresh();
}, 180_000);

afterAll(async () => {
  await pool.close();
  await es?.close();
  await dropTestData(prefix);
});

describe('scanned pages in search', () => {
  it('finds a scanned Russian page by a paraphrase in Russian, marked as OCR with its confidence and page', async () => {
    const hits = await search.search({
      projectId: 'p1',
      query: 'сколько длится гарантия на насосную станцию',
      limit: 3,
      mode: SearchMode.HYBRID,
    });
    expect(hits[0]).toMatchObject({ documentId: 'russian-scan', page: 1, ocr: true });
    expect(hits[0].ocrConfidence).toBeGreaterThan(70);
  });

  it('finds the scanned Chinese page by Chinese words, and the English one by a paraphrase', async () => {
    const chinese = await search.search({
      projectId: 'p1',
      query: '泵站保修期',
      limit: 1,
      mode: SearchMode.HYBRID,
    });
    expect(chinese[0]).toMatchObject({ documentId: 'chinese-scan', ocr: true });
    const english = await search.search({
      projectId: 'p1',
      query: 'how quickly are replacement parts shipped',
      limit: 1,
      mode: SearchMode.HYBRID,
    });
    expect(english[0]).toMatchObject({ documentId: 'english-scan', ocr: true });
  });
});
