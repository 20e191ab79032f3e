import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import type { EmbeddedChunk, ParsedDocument } from '@trove/domain';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

const prefix = uniqueName('index');
const config = workerConfig(prefix);
const embedder = createEmbeddingProvider(config.embedding);
const chunker = new Chunker(new SegmenterTokenCounter(), { targetTokens: 200, overlapTokens: 20 });
let es: Client;
let index: ChunkIndex;
let search: HybridSearch;

async function indexDocument(
  projectId: string,
  documentId: string,
  doc: ParsedDocument,
): Promise<EmbeddedChunk[]> {
  const chunks = chunker.chunk(doc, { projectId, documentId });
  const vectors = await embedder.embed(
    chunks.map((c) => Chunker.embeddingText(c)),
    'passage',
  );
  const embedded = chunks.map((c, i) => ({ ...c, embedding: vectors[i] }));
  await index.upsert(embedded, embedder.modelId);
  await index.refresh();
  return embedded;
}

const paragraphs = (title: string, ...texts: [string[], string][]): ParsedDocument => ({
  title,
  metadata: {},
  blocks: texts.map(([headingPath, text]) => ({ kind: 'paragraph', headingPath, text })),
});

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  search = new HybridSearch(es, prefix, embedder);
  await index.ensure();
  await indexDocument(
    'p1',
    'runbook',
    paragraphs(
      'Runbook',
      [['Rollback'], 'To roll back a release, run deployctl rollback and confirm the prompt.'],
      [['Откат'], 'Чтобы откатить релизы, выполните команду отката и подтвердите.'],
      [['Coffee'], 'The office coffee machine is cleaned every Friday afternoon.'],
    ),
  );
  await indexDocument(
    'p2',
    'other',
    paragraphs('Other project', [['Rollback'], 'Rollback notes of another project.']),
  );
});

afterAll(async () => {
  await es?.close();
  await dropTestData(prefix);
});

describe('ChunkIndex', () => {
  it('creates a versioned index behind an alias, with language analyzers and an int8 HNSW vector field', async () => {
    const aliases = await es.indices.getAlias({ name: index.names.chunks });
    expect(Object.keys(aliases)).toEqual([`${prefix}-chunks-v1-d384`]);
    const mapping = await es.indices.getMapping({ index: index.names.chunks });
    const properties = Object.values(mapping)[0].mappings.properties!;
    expect(properties.embedding).toMatchObject({
      type: 'dense_vector',
      dims: 384,
      similarity: 'cosine',
      index_options: { type: 'int8_hnsw' },
    });
    expect((properties.text as { fields: Record<string, { analyzer: string }> }).fields).toMatchObject({
      en: { analyzer: 'english' },
      ru: { analyzer: 'russian' },
      cjk: { analyzer: 'cjk' },
    });
    await index.ensure(); // idempotent
  });

  it('refuses to reuse an alias built for a different vector size', async () => {
    const other = new ChunkIndex(es, prefix, 768);
    await expect(other.ensure()).rejects.toThrow(/needs .*-chunks-v1-d768/);
  });

  it('fails the whole write when any bulk item is rejected', async () => {
    const [chunk] = chunker.chunk(paragraphs('Bad', [[], 'bad vector']), {
      projectId: 'p1',
      documentId: 'bad',
    });
    await expect(index.upsert([{ ...chunk, embedding: [1, 2, 3] }], 'm')).rejects.toMatchObject({
      code: 'INDEX_FAILED',
      permanent: true,
    });
  });

  it('removes stale chunks of a document but keeps the ones named', async () => {
    const embedded = await indexDocument(
      'p3',
      'stale',
      paragraphs('Stale', [['A'], 'first version, part a'], [['B'], 'first version, part b']),
    );
    expect(await index.countDocumentChunks('stale')).toBe(2);
    expect(await index.deleteDocumentChunks('stale', [embedded[0].id])).toBe(1);
    expect((await index.getDocumentChunks('stale')).map((c) => c.chunkId)).toEqual([embedded[0].id]);
  });

  it('a batch swaps a document’s chunks without forcing a refresh: old out and new in are searchable together when its waited write returns', async () => {
    const settings = await es.indices.getSettings({ index: index.names.chunks });
    // Explicit: a shard without searches keeps its scheduled refreshes, which waited writes rely on.
    expect(Object.values(settings)[0].settings?.index?.refresh_interval).toBe('1s');
    const first = await indexDocument(
      'p3',
      'swapped',
      paragraphs('Swapped', [['A'], 'first version about herons'], [['B'], 'first version about egrets']),
    );
    const second = chunker
      .chunk(paragraphs('Swapped', [['A'], 'second version about cranes']), {
        projectId: 'p3',
        documentId: 'swapped',
      })
      .map((c) => ({ ...c, embedding: first[0].embedding }));
    const removed = await index.deleteStaleChunks(
      [{ documentId: 'swapped', keepIds: second.map((c) => c.id) }],
      { beforeWaitedWrite: true },
    );
    expect(removed).toBe(2);
    await index.upsert(second, embedder.modelId, { waitForRefresh: true });
    // No refresh here: what a search sees right after the batch's write.
    expect((await index.getDocumentChunks('swapped')).map((c) => c.chunkId)).toEqual(second.map((c) => c.id));
  });

  it('finds stored vectors by content hash in any document, one per hash, for the same model only', async () => {
    const text = 'The same paragraph, indexed in two documents of two projects.';
    const first = await indexDocument('p4', 'copy-a', paragraphs('Copy', [['Shared'], text]));
    await indexDocument('p5', 'copy-b', paragraphs('Copy', [['Shared'], text]));
    const hash = first[0].contentHash;
    const found = await index.embeddingsByContentHash([hash, 'no-such-hash'], embedder.modelId);
    expect([...found.keys()]).toEqual([hash]);
    expect(found.get(hash)).toHaveLength(embedder.dimensions);
    expect(found.get(hash)![0]).toBeCloseTo(first[0].embedding[0], 5);
    expect((await index.embeddingsByContentHash([hash], 'another-model')).size).toBe(0);
  });

  it('returns stored vectors by chunk id, leaving out ids that name no chunk', async () => {
    // Real document ids: ids of another shape are refused before they reach Elasticsearch.
    const embedded = await indexDocument(
      'p6',
      randomUUID(),
      paragraphs('Vectors', [['A'], 'Vectors are kept.']),
    );
    const missing = embedded[0].id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const found = await index.vectorsByChunkIds([embedded[0].id, missing, 'not-a-chunk-id']);
    expect([...found.keys()]).toEqual([embedded[0].id]);
    expect(found.get(embedded[0].id)).toHaveLength(embedder.dimensions);
    expect(found.get(embedded[0].id)![0]).toBeCloseTo(embedded[0].embedding[0], 5);
    expect((await index.vectorsByChunkIds([])).size).toBe(0);
  });
});

describe('HybridSearch', () => {
  it('keyword leg stems Russian: "откат релиза" finds "откатить релизы"', async () => {
    const hits = await search.search({
      projectId: 'p1',
      query: 'откат релиза',
      limit: 5,
      mode: SearchMode.KEYWORD,
    });
    expect(hits[0].headingPath).toEqual(['Откат']);
    expect(hits[0].bm25?.rank).toBe(1);
    expect(hits[0].knn).toBeUndefined();
  });

  it('vector leg finds a paraphrase across languages', async () => {
    const hits = await search.search({
      projectId: 'p1',
      query: 'как вернуть предыдущую версию после неудачного деплоя',
      limit: 3,
      mode: SearchMode.VECTOR,
    });
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.headingPath[0])
        .sort(),
    ).toEqual(['Rollback', 'Откат']);
    expect(hits[0].bm25).toBeUndefined();
  });

  it('hybrid fuses both legs, reports each, and stays inside the project', async () => {
    const hits = await search.search(
      { projectId: 'p1', query: 'rollback release', limit: 10, mode: SearchMode.HYBRID },
      { fusion: { method: 'rrf', k: 60 } },
    );
    expect(hits[0].headingPath).toEqual(['Rollback']);
    expect(hits[0].bm25?.rank).toBe(1);
    expect(hits[0].knn?.rank).toBeGreaterThanOrEqual(1);
    expect(hits[0].score).toBeCloseTo(1 / (60 + hits[0].bm25!.rank) + 1 / (60 + hits[0].knn!.rank));
    expect(hits.every((h) => h.projectId === 'p1')).toBe(true);
    expect(hits.map((h) => h.documentId)).not.toContain('other');
  });

  it('CONVEX fusion with vector weight 1 ranks like VECTOR, with weight 0 like KEYWORD', async () => {
    const ids = (hits: { chunkId: string }[]) => hits.map((h) => h.chunkId);
    const run = (query: string, mode: SearchMode, vectorWeight?: number) =>
      search.search(
        { projectId: 'p1', query, limit: 10, mode },
        vectorWeight === undefined ? {} : { fusion: { method: 'convex', vectorWeight } },
      );
    let legsDisagree = false;
    for (const query of ['откат релиза', 'rollback release', 'coffee machine rollback']) {
      const [keyword, vector] = [await run(query, SearchMode.KEYWORD), await run(query, SearchMode.VECTOR)];
      const [vectorOnly, keywordOnly] = [
        await run(query, SearchMode.HYBRID, 1),
        await run(query, SearchMode.HYBRID, 0),
      ];
      // VECTOR returns every chunk of this small project, so weight 1 orders all of them alike;
      // KEYWORD returns only chunks matching a term, which weight 0 puts first, in the same order.
      expect(ids(vectorOnly)).toEqual(ids(vector));
      expect(ids(keywordOnly).slice(0, keyword.length)).toEqual(ids(keyword));
      expect(vectorOnly[0].score).toBe(1);
      expect(keywordOnly[0].score).toBe(1);
      legsDisagree ||= ids(keyword).join() !== ids(vector).slice(0, keyword.length).join();
    }
    // the check means something only if the legs order some query differently
    expect(legsDisagree).toBe(true);
  });

  it('rejects an empty query and an out-of-range limit', async () => {
    await expect(
      search.search({ projectId: 'p1', query: '  ', limit: 5, mode: SearchMode.HYBRID }),
    ).rejects.toThrow(/empty/);
    await expect(
      search.search({ projectId: 'p1', query: 'x', limit: 500, mode: SearchMode.HYBRID }),
    ).rejects.toThrow(/limit/);
  });
});
