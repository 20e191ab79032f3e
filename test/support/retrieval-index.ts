/**
 * The in-process ingest of the retrieval gate and its slice builder: BEIR documents go through the
 * real Markdown parser, the product's default chunking, the embedder and ChunkIndex, as the worker
 * would ingest them (without Temporal, so a slice is indexed in minutes).
 */
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { beirFileName, beirMarkdown, type BeirDocument } from '@trove/evaluation';
import { MarkdownParser } from '@trove/parsing';
import type { ChunkIndex } from '@trove/search';

/** Chunks embedded per request (the embedder's batch size). */
const BATCH = 32;

/**
 * Indexes `docs` under `projectId`, each document under its corpus id, so hits map back to the
 * judgements. `progress` hears the documents done after each batch.
 */
export async function indexBeirDocuments(
  docs: readonly BeirDocument[],
  target: { index: ChunkIndex; embedder: EmbeddingProvider; projectId: string },
  progress?: (documentsDone: number) => void,
): Promise<void> {
  // The product's default chunking (400/50/40), not the test default, so figures match `npm run eval`.
  const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
  const parser = new MarkdownParser();
  const chunks = [];
  for (const doc of docs) {
    const parsed = await parser.parse({
      fileName: beirFileName(doc),
      mediaType: 'text/markdown',
      data: Buffer.from(beirMarkdown(doc)),
    });
    chunks.push(...chunker.chunk(parsed, { projectId: target.projectId, documentId: doc._id }));
  }
  const documentsDone = new Set<string>();
  for (let i = 0; i < chunks.length; i += BATCH) {
    const batch = chunks.slice(i, i + BATCH);
    const vectors = await target.embedder.embed(
      batch.map((c) => Chunker.embeddingText(c)),
      'passage',
    );
    await target.index.upsert(
      batch.map((c, j) => ({ ...c, embedding: vectors[j] })),
      target.embedder.modelId,
    );
    batch.forEach((c) => documentsDone.add(c.documentId));
    progress?.(documentsDone.size);
  }
  await target.index.refresh();
}
