import { Chunker } from '@trove/chunking';
import type { IndexGenerationRecords } from '@trove/catalog';
import { type IndexRebuildProgress, IndexGenerationStatus } from '@trove/domain';
import { type IndexGenerations, type LiveGeneration, sameModel } from '@trove/index-generations';
import type { StoredChunk } from '@trove/search';
import { activity as run, withHeartbeats } from './activity-failure';

export interface IndexRebuildDependencies {
  indexGenerations: IndexGenerationRecords;
  generations: IndexGenerations;
}

/** What one page of the copy did; the workflow adds the pages up. */
export interface CopyPageResult {
  /** The last chunk id read, where the next page starts; undefined when the copy is complete. */
  after?: string;
  copied: number;
  embedded: number;
  reused: number;
  skipped: number;
}

/** Chunks per copy activity: a page is read, embedded (batched) and written in one activity. */
export const REBUILD_PAGE_SIZE = 128;

/**
 * Vectors for `chunks` in `target`'s model: the chunk's own when both generations use the same
 * model, else a vector already in the target index for the same text, else a fresh embedding.
 */
async function vectorsFor(
  chunks: StoredChunk[],
  source: LiveGeneration,
  target: LiveGeneration,
): Promise<{ chunks: StoredChunk[]; embedded: number; reused: number }> {
  const model = target.embedder.modelId;
  if (
    sameModel(source.generation.embedding, target.generation.embedding) &&
    source.generation.dimensions === target.generation.dimensions
  ) {
    return {
      chunks: chunks.filter((c) => c.embedding).map((c) => ({ ...c, embeddingModel: model })),
      embedded: 0,
      reused: chunks.length,
    };
  }
  const known = await target.index.embeddingsByContentHash(
    [...new Set(chunks.map((c) => c.contentHash))],
    model,
  );
  const missing = [
    ...new Map(chunks.filter((c) => !known.has(c.contentHash)).map((c) => [c.contentHash, c])).values(),
  ];
  const batchSize = target.generation.embedding.batchSize;
  for (let i = 0; i < missing.length; i += batchSize) {
    const batch = missing.slice(i, i + batchSize);
    const vectors = await target.embedder.embed(
      batch.map((c) => Chunker.embeddingText(c)),
      'passage',
    );
    batch.forEach((chunk, j) => known.set(chunk.contentHash, vectors[j]));
  }
  return {
    chunks: chunks.map((c) => ({ ...c, embedding: known.get(c.contentHash)!, embeddingModel: model })),
    embedded: missing.length,
    reused: chunks.length - missing.length,
  };
}

/**
 * Activities of `rebuildIndex`: copy the ACTIVE generation into a BUILDING one with its model,
 * reconcile what changed meanwhile, swap, and clean up. Every step is idempotent: a retried page
 * re-reads the same chunk-id range and never overwrites what an ingest wrote since.
 */
export function createIndexRebuildActivities({ indexGenerations, generations }: IndexRebuildDependencies) {
  const pair = async (generationId: number) => {
    const target = await generations.byId(generationId);
    const source = await generations.active();
    return { source, target };
  };

  return {
    /** How many chunks there are to copy (for progress). */
    async startIndexCopy(input: { generationId: number }): Promise<{ chunksTotal: number }> {
      return run(async () => {
        const { source, target } = await pair(input.generationId);
        await target.index.ensureIndex();
        await source.index.refresh();
        const chunksTotal = await source.index.count();
        await indexGenerations.setProgress(input.generationId, { chunksTotal });
        return { chunksTotal };
      });
    },

    /** Copies one page of the ACTIVE index, after `after`, with the new generation's vectors. */
    async copyIndexPage(input: {
      generationId: number;
      after?: string;
      progress: IndexRebuildProgress;
    }): Promise<CopyPageResult> {
      return run(async () => {
        const { source, target } = await pair(input.generationId);
        const page = await source.index.page(input.after, REBUILD_PAGE_SIZE, true);
        // Chunks an ingest already wrote to the new index are newer than this copy: keep them.
        const present = await target.index.existingIds(page.chunks.map((c) => c.chunkId));
        const todo = page.chunks.filter((c) => !present.has(c.chunkId));
        const made = await withHeartbeats({ after: input.after, chunks: todo.length }, () =>
          vectorsFor(todo, source, target),
        );
        const copied = await target.index.createMissing(made.chunks);
        const result: CopyPageResult = {
          ...(page.chunks.length === REBUILD_PAGE_SIZE ? { after: page.last } : {}),
          copied,
          embedded: made.embedded,
          reused: made.reused,
          skipped: page.chunks.length - copied,
        };
        await indexGenerations.setProgress(input.generationId, {
          ...input.progress,
          chunksCopied: (input.progress.chunksCopied ?? 0) + result.copied,
          chunksEmbedded: (input.progress.chunksEmbedded ?? 0) + result.embedded,
          chunksReused: (input.progress.chunksReused ?? 0) + result.reused,
          chunksSkipped: (input.progress.chunksSkipped ?? 0) + result.skipped,
        });
        return result;
      });
    },

    /**
     * Makes the new index hold exactly the ACTIVE one's chunk ids: removes chunks the copy took
     * before an ingest or a deletion removed them from the active index, and copies chunks
     * written while the copy ran that it missed. Ingests write both indices meanwhile, so after
     * this the two differ only by writes in flight, which also reach both.
     */
    async reconcileIndex(input: {
      generationId: number;
      progress: IndexRebuildProgress;
    }): Promise<IndexRebuildProgress> {
      return run(async () => {
        const { source, target } = await pair(input.generationId);
        await source.index.refresh();
        let removed = 0;
        let added = 0;
        let embedded = 0;
        for (let after: string | undefined, more = true; more;) {
          const page = await target.index.page(after, 1_000, false);
          const ids = page.chunks.map((c) => c.chunkId);
          const kept = await source.index.existingIds(ids);
          removed += await target.index.deleteIds(ids.filter((id) => !kept.has(id)));
          more = page.chunks.length === 1_000;
          after = page.last;
        }
        for (let after: string | undefined, more = true; more;) {
          const page = await source.index.page(after, REBUILD_PAGE_SIZE, true);
          const present = await target.index.existingIds(page.chunks.map((c) => c.chunkId));
          const missing = page.chunks.filter((c) => !present.has(c.chunkId));
          if (missing.length > 0) {
            const made = await withHeartbeats({ reconciling: missing.length }, () =>
              vectorsFor(missing, source, target),
            );
            added += await target.index.createMissing(made.chunks);
            embedded += made.embedded;
          }
          more = page.chunks.length === REBUILD_PAGE_SIZE;
          after = page.last;
        }
        await target.index.refresh();
        const progress = {
          ...input.progress,
          chunksCopied: (input.progress.chunksCopied ?? 0) + added,
          chunksEmbedded: (input.progress.chunksEmbedded ?? 0) + embedded,
          chunksRemoved: removed,
        };
        await indexGenerations.setProgress(input.generationId, progress);
        return progress;
      });
    },

    /** Swaps: the new generation becomes ACTIVE (PostgreSQL, then the alias); returns the old one. */
    async activateGeneration(input: { generationId: number }): Promise<{ retiredGenerationId?: number }> {
      return run(async () => {
        const target = await generations.byId(input.generationId);
        if (target.generation.status === IndexGenerationStatus.BUILDING) {
          const retired = await indexGenerations.activate(input.generationId);
          generations.invalidate();
          await target.index.takeAlias();
          return retired ? { retiredGenerationId: retired.id } : {};
        }
        // A retry after the swap went through: finish the alias part only.
        await target.index.takeAlias();
        const previous = (await indexGenerations.recent(5)).find(
          (g) => g.status === IndexGenerationStatus.RETIRED && g.id < input.generationId,
        );
        return previous ? { retiredGenerationId: previous.id } : {};
      });
    },

    /** Removes a retired or abandoned generation's index (never the ACTIVE one's). */
    async dropGenerationIndex(input: { generationId: number }): Promise<void> {
      return run(async () => {
        const generation = await generations.byId(input.generationId);
        if (generation.generation.status === IndexGenerationStatus.ACTIVE) return;
        await generation.index.dropIndex();
      });
    },

    /** Ends a rebuild that failed or was cancelled: the old generation stays ACTIVE. */
    async abandonRebuild(input: { generationId: number; cancelled: boolean; reason: string }): Promise<void> {
      return run(async () => {
        await indexGenerations.finish(
          input.generationId,
          input.cancelled ? IndexGenerationStatus.CANCELLED : IndexGenerationStatus.FAILED,
          input.reason,
        );
        generations.invalidate();
        const generation = await generations.byId(input.generationId);
        if (generation.generation.status !== IndexGenerationStatus.ACTIVE) await generation.index.dropIndex();
      });
    },
  };
}

export type IndexRebuildActivities = ReturnType<typeof createIndexRebuildActivities>;
