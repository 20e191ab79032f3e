import type { Chunk, EmbeddingProvider } from '@trove/domain';
import { DocumentStatus } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import {
  InMemoryBlobStore,
  InMemoryCatalog,
  PARSER_NOT_USED,
  RecordingChunkIndex,
  runActivity,
} from './fakes.testing';
import { createIngestActivities, type IndexTarget } from './ingest.activities';

/** A model whose vectors say which model made them: [model number, text length]. */
function model(id: string, n: number) {
  const calls: string[][] = [];
  const embedder: EmbeddingProvider = {
    modelId: id,
    dimensions: 2,
    embed: async (texts) => {
      calls.push(texts);
      return texts.map((t) => [n, t.length]);
    },
    ping: async () => undefined,
  };
  return { embedder, calls };
}

/** One generation's index: what was written, and vectors it already holds by content hash. */
function index(known: Record<string, number[]> = {}) {
  const fake = new RecordingChunkIndex(known);
  return { index: fake, written: fake.written };
}

function setup(targets: () => IndexTarget[]) {
  const catalog = new InMemoryCatalog();
  const source = catalog.newSource();
  const documentId = 'doc-1';
  catalog.documents.set(documentId, {
    id: documentId,
    projectId: source.projectId,
    sourceId: source.id,
    fileName: 'a.md',
    mediaType: 'text/markdown',
    sizeBytes: 1,
    contentHash: 'h',
    blobKey: 'b',
    status: DocumentStatus.INDEXING,
    chunkCount: 0,
    timings: {},
    createdAt: '2026-11-23T00:00:00Z',
    updatedAt: '2026-11-23T00:00:00Z',
  });
  const blobs = new InMemoryBlobStore();
  const chunk = (position: number, text: string): Chunk => ({
    id: `${documentId}-${position}-x`,
    documentId,
    projectId: source.projectId,
    position,
    text,
    headingPath: [],
    title: 'A',
    tokenCount: 3,
    contentHash: `hash-${text}`,
    language: 'en',
    hasCode: false,
    codeLanguages: [],
  });
  const activities = createIngestActivities({
    ...catalog.ports(),
    blobs,
    parsers: PARSER_NOT_USED,
    chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
    embedder: targets()[0].embedder,
    chunkIndex: new RecordingChunkIndex(),
    generations: { writable: async () => targets() },
    batchSize: 16,
    connectors: undefined as never,
  });
  return { activities, blobs, documentId, chunks: [chunk(0, 'alpha'), chunk(1, 'beta')] };
}

async function ingest(s: ReturnType<typeof setup>) {
  await s.blobs.putJson('work/batch-0', s.chunks);
  const embedded = await runActivity(s.activities.embedChunks, { batchKey: 'work/batch-0' });
  return {
    embedded,
    upsert: () =>
      runActivity(s.activities.upsertChunks, {
        documentId: s.documentId,
        embeddedKeys: [embedded.embeddedKey],
      }),
  };
}

describe('ingest with index generations', () => {
  it('embeds with the ACTIVE model and writes every live generation with its own model’s vectors', async () => {
    const a = model('model-a', 1);
    const b = model('model-b', 2);
    const ia = index();
    const ib = index({ 'hash-beta': [2, 99] }); // the new index already holds this text's vector
    const s = setup(() => [
      { index: ia.index, embedder: a.embedder },
      { index: ib.index, embedder: b.embedder },
    ]);
    const { embedded, upsert } = await ingest(s);
    expect(embedded).toMatchObject({ embedded: 2, reused: 0 });
    await upsert();

    expect(ia.written).toHaveLength(1);
    expect(ia.written[0].model).toBe('model-a');
    expect(ia.written[0].chunks.map((c) => c.embedding[0])).toEqual([1, 1]);
    expect(ib.written[0].model).toBe('model-b');
    expect(ib.written[0].chunks.map((c) => c.embedding)).toEqual([
      [2, 'A\n\nalpha'.length],
      [2, 99],
    ]);
    // Model A embedded both texts once; model B only the text its index did not hold.
    expect(a.calls).toEqual([['A\n\nalpha', 'A\n\nbeta']]);
    expect(b.calls).toEqual([['A\n\nalpha']]);
  });

  it('re-embeds for the new model when the swap happened between embedding and writing', async () => {
    const a = model('model-a', 1);
    const b = model('model-b', 2);
    const ia = index();
    const ib = index();
    let live: IndexTarget[] = [{ index: ia.index, embedder: a.embedder }];
    const s = setup(() => live);
    const { upsert } = await ingest(s);
    live = [{ index: ib.index, embedder: b.embedder }]; // the rebuild swapped: B is ACTIVE, alone
    await upsert();
    expect(ia.written).toHaveLength(0);
    expect(ib.written[0].model).toBe('model-b');
    expect(ib.written[0].chunks.every((c) => c.embedding[0] === 2)).toBe(true);
  });
});
