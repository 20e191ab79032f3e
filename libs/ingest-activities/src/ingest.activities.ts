import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Catalog } from '@trove/catalog';
import { Chunker } from '@trove/chunking';
import type {
  BlobStore,
  Chunk,
  EmbeddedChunk,
  EmbeddingProvider,
  ParsedDocument,
  StageTimings,
} from '@trove/domain';
import { DocumentStatus, isTroveError, TroveErrorCode } from '@trove/domain';
import type { ParserRegistry } from '@trove/parsing';
import type { ChunkIndex } from '@trove/search';
import { createHash } from 'node:crypto';
import { blockUrl } from '@trove/notion';
import type { NotionSources } from './notion-source';

export interface IngestDependencies {
  catalog: Catalog;
  blobs: BlobStore;
  parsers: ParserRegistry;
  chunker: Chunker;
  embedder: EmbeddingProvider;
  chunkIndex: ChunkIndex;
  /** Chunks per embedding request, and per blob handed between activities. */
  batchSize: number;
  /** Fetches documents that come from Notion sources. */
  notion: NotionSources;
}

export interface FetchedDocument {
  documentId: string;
  projectId: string;
  fileName: string;
  mediaType: string;
  blobKey: string;
  /** Keys of intermediate blobs live under this prefix, so a changed file never reads stale ones. */
  workPrefix: string;
  /** For source items: the Notion page id, so chunks can link to their block. */
  externalId?: string;
  ms: number;
}

export interface ParsedRef {
  parsedKey: string;
  title: string;
  ms: number;
}

export interface ChunkedRef {
  batchKeys: string[];
  chunkCount: number;
  language: string;
  ms: number;
}

export interface EmbeddedRef {
  embeddedKey: string;
  embedded: number;
  reused: number;
  ms: number;
}

export interface UpsertResult {
  chunkCount: number;
  removedStale: number;
  ms: number;
}

/**
 * The ingestion activities. Each takes and returns small references (blob keys), never whole
 * documents, so workflow payloads stay far below Temporal's 2 MB limit.
 */
export function createIngestActivities(deps: IngestDependencies) {
  const { catalog, blobs, parsers, chunker, embedder, chunkIndex, batchSize, notion } = deps;

  return {
    /** Loads the document record and its original; marks it INDEXING. */
    async fetchDocument(input: { documentId: string }): Promise<FetchedDocument> {
      return run(async () => {
        const started = Date.now();
        let document = await catalog.getDocument(input.documentId);
        if (document?.sourceId && document.externalId) {
          // A source item: fetch its current version into blob storage first.
          const source = await catalog.requireSource(document.sourceId);
          const externalId = document.externalId;
          const page = await withHeartbeats({ fetching: externalId }, () =>
            notion.fetchPage(source, externalId),
          );
          const contentHash = createHash('sha256').update(page.data).digest('hex');
          const blobKey = `originals/${document.id}/${contentHash.slice(0, 16)}`;
          await blobs.put(blobKey, page.data);
          const changes = {
            blobKey,
            contentHash,
            sizeBytes: page.data.length,
            mediaType: page.mediaType,
            title: page.title,
            url: page.url,
            breadcrumb: page.breadcrumb,
            externalEditedAt: page.editedAt,
          };
          await catalog.updateDocument(document.id, changes);
          document = { ...document, ...changes };
        }
        if (!document) {
          throw ApplicationFailure.create({
            nonRetryable: true,
            type: TroveErrorCode.DocumentNotFound,
            message: `document ${input.documentId} was deleted before it could be indexed`,
          });
        }
        if (!(await blobs.exists(document.blobKey))) {
          throw ApplicationFailure.create({
            nonRetryable: true,
            type: TroveErrorCode.DocumentNotFound,
            message: `the original file of ${document.fileName} is missing from blob storage (${document.blobKey})`,
          });
        }
        await catalog.updateDocument(document.id, { status: DocumentStatus.INDEXING, error: null });
        return {
          documentId: document.id,
          projectId: document.projectId,
          fileName: document.fileName,
          mediaType: document.mediaType,
          blobKey: document.blobKey,
          workPrefix: `work/${document.id}/${document.contentHash.slice(0, 16)}`,
          ...(document.externalId ? { externalId: document.externalId } : {}),
          ms: Date.now() - started,
        };
      });
    },

    async parseDocument(input: FetchedDocument): Promise<ParsedRef> {
      return run(async () => {
        const started = Date.now();
        const data = await blobs.get(input.blobKey);
        const parsed = await parsers.parse({ fileName: input.fileName, mediaType: input.mediaType, data });
        const parsedKey = `${input.workPrefix}/parsed.json`;
        await blobs.putJson(parsedKey, parsed);
        return { parsedKey, title: parsed.title, ms: Date.now() - started };
      });
    },

    async chunkDocument(input: { fetched: FetchedDocument; parsedKey: string }): Promise<ChunkedRef> {
      return run(async () => {
        const started = Date.now();
        const parsed = await blobs.getJson<ParsedDocument>(input.parsedKey);
        const externalId = input.fetched.externalId;
        const chunks = chunker
          .chunk(parsed, { documentId: input.fetched.documentId, projectId: input.fetched.projectId })
          .map((chunk) =>
            externalId ? { ...chunk, citationUrl: blockUrl(externalId, chunk.anchor) } : chunk,
          );
        const batchKeys: string[] = [];
        for (let i = 0; i * batchSize < chunks.length; i++) {
          const key = `${input.fetched.workPrefix}/chunks/${i}.json`;
          await blobs.putJson(key, chunks.slice(i * batchSize, (i + 1) * batchSize));
          batchKeys.push(key);
        }
        return {
          batchKeys,
          chunkCount: chunks.length,
          language: dominantLanguage(chunks),
          ms: Date.now() - started,
        };
      });
    },

    /** Embeds one batch; chunks whose content hash is already indexed for the document reuse their vector. */
    async embedChunks(input: { batchKey: string }): Promise<EmbeddedRef> {
      return run(async () => {
        const started = Date.now();
        const chunks = await blobs.getJson<Chunk[]>(input.batchKey);
        const documentId = chunks[0]?.documentId ?? '';
        const existing = await chunkIndex.embeddingsByContentHash(
          documentId,
          [...new Set(chunks.map((c) => c.contentHash))],
          embedder.modelId,
        );
        const missing = chunks.filter((c) => !existing.has(c.contentHash));
        const vectors = await withHeartbeats({ batchKey: input.batchKey, toEmbed: missing.length }, () =>
          embedder.embed(
            missing.map((c) => Chunker.embeddingText(c)),
            'passage',
          ),
        );
        missing.forEach((chunk, i) => existing.set(chunk.contentHash, vectors[i]));
        const embedded: EmbeddedChunk[] = chunks.map((c) => ({
          ...c,
          embedding: existing.get(c.contentHash)!,
        }));
        const embeddedKey = input.batchKey.replace('/chunks/', '/embedded/');
        await blobs.putJson(embeddedKey, embedded);
        return {
          embeddedKey,
          embedded: missing.length,
          reused: chunks.length - missing.length,
          ms: Date.now() - started,
        };
      });
    },

    /** Writes all chunks (same ids overwrite), then removes this document's chunks from earlier versions. */
    async upsertChunks(input: { documentId: string; embeddedKeys: string[] }): Promise<UpsertResult> {
      return run(async () => {
        const started = Date.now();
        const ids: string[] = [];
        for (const key of input.embeddedKeys) {
          const chunks = await blobs.getJson<EmbeddedChunk[]>(key);
          await withHeartbeats({ written: ids.length }, () => chunkIndex.upsert(chunks, embedder.modelId));
          ids.push(...chunks.map((c) => c.id));
        }
        const removedStale = await chunkIndex.deleteDocumentChunks(input.documentId, ids);
        // Deleted while we were writing: take the chunks back out rather than leave orphans.
        if (!(await catalog.getDocument(input.documentId))) {
          await chunkIndex.deleteDocumentChunks(input.documentId);
          throw ApplicationFailure.create({
            nonRetryable: true,
            type: TroveErrorCode.DocumentNotFound,
            message: `document ${input.documentId} was deleted during indexing`,
          });
        }
        return { chunkCount: ids.length, removedStale, ms: Date.now() - started };
      });
    },

    async finalizeDocument(input: {
      documentId: string;
      chunkCount: number;
      title: string;
      language: string;
      timings: StageTimings;
    }): Promise<void> {
      return run(async () => {
        await catalog.updateDocument(input.documentId, {
          status: DocumentStatus.READY,
          error: null,
          chunkCount: input.chunkCount,
          title: input.title,
          language: input.language,
          timings: input.timings,
          indexedAt: new Date().toISOString(),
        });
        // Scratch blobs of this and any earlier run are no longer needed.
        await blobs.deletePrefix(`work/${input.documentId}`);
      });
    },

    /** Records the reason and removes any chunks, so a failed document is never half-indexed. */
    async failDocument(input: { documentId: string; code: string; message: string }): Promise<void> {
      return run(async () => {
        await chunkIndex.deleteDocumentChunks(input.documentId);
        await catalog.updateDocument(input.documentId, {
          status: DocumentStatus.FAILED,
          chunkCount: 0,
          error: { code: input.code, message: input.message },
        });
        await blobs.deletePrefix(`work/${input.documentId}`);
      });
    },
  };
}

export type IngestActivities = ReturnType<typeof createIngestActivities>;

/**
 * Heartbeats every few seconds while `work` runs, so a worker crash is noticed within the
 * heartbeat timeout even when one call (a large embedding batch) takes long.
 */
async function withHeartbeats<T>(details: unknown, work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  context.heartbeat(details);
  const timer = setInterval(() => context.heartbeat(details), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

const HEARTBEAT_EVERY_MS = 5_000;

/** Permanent Trove errors become non-retryable failures; everything else is retried by Temporal. */
async function run<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ApplicationFailure) throw error;
    if (isTroveError(error)) {
      throw ApplicationFailure.create({
        nonRetryable: error.permanent,
        type: error.code,
        message: error.message,
        cause: error,
      });
    }
    throw error;
  }
}

function dominantLanguage(chunks: Chunk[]): string {
  const tokens = new Map<string, number>();
  for (const chunk of chunks)
    tokens.set(chunk.language, (tokens.get(chunk.language) ?? 0) + chunk.tokenCount);
  return [...tokens.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'und';
}
