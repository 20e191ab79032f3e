import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DocumentLeases, DocumentRecords, SourceRecords, WriteChecks } from '@trove/catalog';
import { Chunker, type ChunkerOptions } from '@trove/chunking';
import type {
  BlobStore,
  Chunk,
  Citation,
  EmbeddedChunk,
  EmbeddingProvider,
  EmbedOptions,
  DocumentProgress,
  ParseInput,
  Source,
  StageTimings,
  TroveDocument,
} from '@trove/domain';
import {
  blobKeys,
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  type DocumentLimits,
  DocumentStatus,
  laneOfTaskQueue,
  projectOcr,
  SourceType,
  TroveError,
  TroveErrorCode,
  wellFormedText,
} from '@trove/domain';
import { EmbeddingRejectedError, embedIsolatingRejections } from '@trove/embeddings';
import {
  chunksEmbedded,
  chunksFailed,
  chunksIndexed,
  documentsFailed,
  documentsIndexed,
  errorCodeLabel,
} from '@trove/metrics';
import {
  type ChunkedFile,
  type ChunkJob,
  MEDIA_TYPES,
  type ParsedFile,
  type ParsedSummary,
} from '@trove/parsing';
import type { ChunkRemoval, ChunkWriter } from '@trove/search';
import { createHash } from 'node:crypto';
import { activity as run, stage, withHeartbeats } from './activity-failure';
import { assertWritable, guardedDocumentWrite } from './write-guards';
import { BUSY_WAIT_MS, claimForPage, PAGE_LEASE_HOLDER, PAGE_LEASE_MS } from './ingest-lease';
import type { SourceConnectors } from './source-connectors';

/** How a parse is watched: cancelled with the activity, its OCR progress heard. */
export interface ParseOptions {
  signal?: AbortSignal;
  /** Each page read by OCR, with the document's page count where known. */
  onProgress?: (page: number, pageCount?: number) => void;
}

/**
 * Parses and chunks files off the worker's event loop: the parse sandbox (threads with time and
 * memory limits) in the worker, `InProcessParser` or a fake in tests. Both steps take time in
 * proportion to a document's size, and the event loop serves every project's activities.
 */
export interface DocumentParser {
  /** Parses a file; the document comes back as JSON, stored as it is for the chunk step. */
  parseToJson(input: ParseInput, options?: ParseOptions): Promise<ParsedFile>;
  /** Chunks a parsed document given as JSON. */
  chunk(
    parsed: { fileName: string; json: Uint8Array },
    job: ChunkJob,
    options?: Pick<ParseOptions, 'signal'>,
  ): Promise<ChunkedFile>;
  /** Parses and chunks a file in one step (a batch keeps no parsed document). */
  parseAndChunk(input: ParseInput, job: ChunkJob, options?: ParseOptions): Promise<ChunkedFile>;
}

/** A long scan's progress is written at most this often (and at its last page). */
const PROGRESS_WRITE_MS = 2_000;

/** The catalog's ports an ingest uses: the documents and their leases, their sources, the write checks. */
export interface IngestCatalog {
  writeChecks: WriteChecks;
  documents: DocumentRecords & DocumentLeases;
  sources: Pick<SourceRecords, 'requireSource'>;
}

export interface IngestDependencies extends IngestCatalog {
  blobs: BlobStore;
  parsers: DocumentParser;
  /** The current chunking settings (they change through the API). */
  chunking: () => Promise<ChunkerOptions>;
  embedder: EmbeddingProvider;
  /** The alias (reads) and every generation's index (deletions). */
  chunkIndex: ChunkWriter & ChunkRemoval;
  /**
   * The live index generations: chunks are embedded for, and written to, each (the ACTIVE one
   * and one being rebuilt for another model). Unset: `chunkIndex` with `embedder` only.
   */
  generations?: { writable(): Promise<IndexTarget[]> };
  /** Chunks per embedding request, and per blob handed between activities. */
  batchSize: number;
  /** Fetch documents that come from sources. */
  connectors: SourceConnectors;
  /**
   * The limits every document is held to (the worker's settings); unset: the defaults. Bytes are
   * checked here, before an original is read (an upload's recorded size) and as a source item is
   * fetched; the rest by the parsers.
   */
  limits?: DocumentLimits;
  /**
   * How long `fetchDocument` waits for a sync batch holding its document before failing with the
   * retryable DOCUMENT_BUSY (default `BUSY_WAIT_MS`; tests use 0).
   */
  busyWaitMs?: number;
}

/** One index chunks are written to, with the model its vectors come from. */
export interface IndexTarget {
  index: ChunkWriter;
  embedder: EmbeddingProvider;
}

/**
 * Vectors of `chunks` for a target's model. A chunk whose embedded text (its content hash) is
 * already indexed there with this model — in any document: an earlier version, a copy, the same
 * page in another source — reuses that vector: the same text is never embedded twice, unless
 * `reuse` is false (a rebuild asked for fresh vectors).
 */
export async function vectorsFor(
  chunks: Chunk[],
  target: IndexTarget,
  options: EmbedOptions = {},
  reuse = true,
): Promise<{ vectors: number[][]; embedded: number }> {
  const { index, embedder } = target;
  const known = reuse
    ? await index.embeddingsByContentHash([...new Set(chunks.map((c) => c.contentHash))], embedder.modelId)
    : new Map<string, number[]>();
  const missing = chunks.filter((c) => !known.has(c.contentHash));
  const vectors = await embedIsolatingRejections(
    embedder,
    missing.map((c) => Chunker.embeddingText(c)),
    'passage',
    options,
  ).catch((error: unknown) => {
    if (error instanceof EmbeddingRejectedError) {
      chunksFailed.inc({ code: TroveErrorCode.EmbeddingRejected }, error.rejected.length);
      throw rejectedChunks(error, missing);
    }
    throw error;
  });
  missing.forEach((chunk, i) => known.set(chunk.contentHash, vectors[i]));
  return { vectors: chunks.map((c) => known.get(c.contentHash)!), embedded: missing.length };
}

/**
 * How this activity's embeddings queue at the process's embedder client: those of the interactive
 * lane (a webhook edit, a reindex) go ahead of the bulk lane's batches; bulk ones of different
 * projects (`tenant`) take turns, a project's own older work first. The activity's cancellation
 * (its project or source being deleted) takes a waiting request out of the queue and aborts one
 * at the server.
 */
export function embeddingOrder(
  tenant?: string,
): Pick<EmbedOptions, 'priority' | 'since' | 'tenant' | 'signal'> {
  const { info, cancellationSignal } = Context.current();
  return {
    priority: laneOfTaskQueue(info.taskQueue) === 'interactive' ? 'interactive' : 'bulk',
    // Older work first within the lane: a batch embedded through before a younger one starts.
    since: info.scheduledTimestampMs,
    ...(tenant ? { tenant } : {}),
    signal: cancellationSignal,
  };
}

/**
 * Attempts a chunk the embedding server refuses or times out on (while it embeds other text) gets
 * before its document fails: the first refusal may have been a coincidence (a server restarting
 * between the request and the probe, a moment of overload), but the same text failing the same
 * way twice in a row is the text. The document then fails instead of holding the shared embedder.
 */
export const EMBEDDING_REJECTED_ATTEMPTS = 2;

/** The refusal in the document's terms (which chunk, where), permanent from the last attempt on. */
function rejectedChunks(error: EmbeddingRejectedError, chunks: Chunk[]): TroveError {
  const attempt = Context.current().info.attempt;
  const [first, ...more] = error.rejected.map(({ index, reason }) => ({ chunk: chunks[index], reason }));
  // Title and heading path, without the repeat of a title that is also the first heading.
  const place = [first.chunk.title, ...first.chunk.headingPath]
    .filter((part, i, parts) => part && part !== parts[i - 1])
    .join(' › ');
  const which =
    `chunk ${first.chunk.position + 1}` +
    (place ? ` ("${clip(place, 120)}")` : '') +
    (more.length ? ` and ${more.length} more` : '');
  return new TroveError(
    TroveErrorCode.EmbeddingRejected,
    `the embedding server refuses the text of ${which} while it embeds other text, ` +
      `${attempt} ${attempt === 1 ? 'attempt' : 'attempts'} in a row: ${clip(first.reason, 300)}`,
    { permanent: attempt >= EMBEDDING_REJECTED_ATTEMPTS, cause: error },
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface FetchedDocument {
  documentId: string;
  projectId: string;
  fileName: string;
  mediaType: string;
  blobKey: string;
  /** Keys of intermediate blobs live under this prefix, so a changed file never reads stale ones. */
  workPrefix: string;
  /** For source items: the item's id and link there, and its connector (citations are its to make). */
  externalId?: string;
  url?: string;
  sourceType?: SourceType;
  ms: number;
}

export interface ParsedRef {
  parsedKey: string;
  title: string;
  pageCount?: number;
  /** Capped: what the parser could not interpret. */
  warnings: string[];
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
  const { writeChecks, documents, sources, blobs, parsers, embedder, chunkIndex, batchSize } = deps;
  /** Where chunks go, ACTIVE first: each index with the model its vectors come from. */
  const targets = async (): Promise<IndexTarget[]> =>
    deps.generations ? deps.generations.writable() : [{ index: chunkIndex, embedder }];

  return {
    /**
     * Takes the document's ingest lease (waiting for a sync batch that holds it: DOCUMENT_BUSY,
     * retried), loads the record and its original; marks it INDEXING.
     */
    async fetchDocument(input: { documentId: string }): Promise<FetchedDocument> {
      return run(
        stage('fetch', 'document', async () => {
          await claimForPage(documents, input.documentId, deps.busyWaitMs ?? BUSY_WAIT_MS);
          const document = await documents.getDocument(input.documentId);
          // Nothing is fetched or written for a project or source that is being deleted.
          if (document) await assertWritable(writeChecks, document);
          const source = document?.sourceId ? await sources.requireSource(document.sourceId) : undefined;
          return fetchForIngest(deps, input.documentId, document, source);
        }),
      );
    },

    async parseDocument(input: FetchedDocument): Promise<ParsedRef> {
      return run(
        stage('parse', 'document', async () => {
          const started = Date.now();
          const data = await blobs.get(input.blobKey);
          const signal = Context.current().cancellationSignal;
          const ocr = projectOcr(await writeChecks.requireActiveProject(input.projectId));
          const progress = documentProgressWriter(documents, input.documentId);
          const { json, summary } = await withHeartbeats({ parsing: input.fileName }, () =>
            parsers.parseToJson(
              { fileName: input.fileName, mediaType: input.mediaType, data, ...(!ocr && { ocr }) },
              { signal, onProgress: progress.page },
            ),
          ).finally(() => progress.flush());
          const parsedKey = blobKeys.parsed(input.workPrefix);
          // Stored as the thread wrote it: the document is never parsed or copied on this thread.
          await blobs.put(parsedKey, Buffer.from(json.buffer, json.byteOffset, json.byteLength));
          return {
            parsedKey,
            // The document's title as stored and shown: well-formed, like its chunks.
            title: wellFormedText(summary.title),
            ...(summary.pageCount ? { pageCount: summary.pageCount } : {}),
            warnings: (summary.warnings ?? []).slice(0, MAX_WARNINGS),
            ms: Date.now() - started,
          };
        }),
      );
    },

    async chunkDocument(input: { fetched: FetchedDocument; parsedKey: string }): Promise<ChunkedRef> {
      return run(
        stage('chunk', 'document', async () => {
          const started = Date.now();
          const json = await blobs.get(input.parsedKey);
          const signal = Context.current().cancellationSignal;
          const chunks = await withHeartbeats({ chunking: input.fetched.fileName }, async () =>
            withCitations(
              deps,
              input.fetched,
              await parsers.chunk(
                { fileName: input.fetched.fileName, json },
                await chunkJob(deps, input.fetched),
                { signal },
              ),
            ),
          );
          const batchKeys: string[] = [];
          for (let i = 0; i * batchSize < chunks.length; i++) {
            const key = blobKeys.chunkBatch(input.fetched.workPrefix, i);
            await blobs.putJson(key, chunks.slice(i * batchSize, (i + 1) * batchSize));
            batchKeys.push(key);
          }
          return {
            batchKeys,
            chunkCount: chunks.length,
            language: dominantLanguage(chunks),
            ms: Date.now() - started,
          };
        }),
      );
    },

    /** Embeds one batch with the ACTIVE generation's model (stored vectors of the same text reused). */
    async embedChunks(input: { batchKey: string; reembed?: boolean }): Promise<EmbeddedRef> {
      return run(
        stage('embed', 'document', async () => {
          const started = Date.now();
          const chunks = await blobs.getJson<Chunk[]>(input.batchKey);
          const [active] = await targets();
          const { vectors, embedded } = await withHeartbeats({ batchKey: input.batchKey }, () =>
            vectorsFor(chunks, active, embeddingOrder(chunks[0]?.projectId), !input.reembed),
          );
          const embeddedChunks: EmbeddedChunk[] = chunks.map((c, i) => ({
            ...c,
            embedding: vectors[i],
            embeddingModel: active.embedder.modelId,
          }));
          const embeddedKey = blobKeys.embeddedBatchOf(input.batchKey);
          await blobs.putJson(embeddedKey, embeddedChunks);
          chunksEmbedded.inc({ result: 'embedded' }, embedded);
          chunksEmbedded.inc({ result: 'reused' }, chunks.length - embedded);
          return {
            embeddedKey,
            embedded,
            reused: chunks.length - embedded,
            ms: Date.now() - started,
          };
        }),
      );
    },

    /** Writes all chunks (same ids overwrite), then removes this document's chunks from earlier versions. */
    async upsertChunks(input: { documentId: string; embeddedKeys: string[] }): Promise<UpsertResult> {
      return run(
        stage('upsert', 'document', async () => {
          const started = Date.now();
          // Renewed before writing: a batch never writes this document's chunks at the same time.
          await claimForPage(documents, input.documentId, 0);
          const document = await documents.getDocument(input.documentId);
          if (!document) throw deletedDuringIndexing(input.documentId);
          const ids: string[] = [];
          const live = await targets();
          // Its project or source started being deleted while we were writing: the chunks go back out.
          const removedStale = await guardedDocumentWrite(
            writeChecks,
            [document],
            async () => {
              for (const key of input.embeddedKeys) {
                const chunks = await blobs.getJson<EmbeddedChunk[]>(key);
                for (const target of live) {
                  const model = target.embedder.modelId;
                  await withHeartbeats({ written: ids.length }, async () => {
                    // Embedded for this model (batches written before generations recorded none: the active one)…
                    const fits = (chunks[0]?.embeddingModel ?? live[0].embedder.modelId) === model;
                    // …or for another: a rebuild is under way, or the model changed since embedChunks ran.
                    const vectors = fits
                      ? chunks.map((c) => c.embedding)
                      : (await vectorsFor(chunks, target, embeddingOrder(document.projectId))).vectors;
                    await target.index.upsert(
                      chunks.map((c, i) => ({ ...c, embedding: vectors[i] })),
                      model,
                    );
                  });
                }
                ids.push(...chunks.map((c) => c.id));
              }
              return chunkIndex.deleteDocumentChunks(input.documentId, ids);
            },
            () => chunkIndex.deleteDocumentChunks(input.documentId),
          );
          // The document itself was deleted meanwhile: take the chunks back out rather than leave orphans.
          if (!(await documents.getDocument(input.documentId))) {
            await chunkIndex.deleteDocumentChunks(input.documentId);
            throw deletedDuringIndexing(input.documentId);
          }
          return { chunkCount: ids.length, removedStale, ms: Date.now() - started };
        }),
      );
    },

    async finalizeDocument(input: {
      documentId: string;
      chunkCount: number;
      title: string;
      language: string;
      timings: StageTimings;
      pageCount?: number;
      warnings?: string[];
    }): Promise<void> {
      return run(
        stage('finalize', 'document', async () => {
          await documents.updateDocument(input.documentId, {
            status: DocumentStatus.READY,
            error: null,
            chunkCount: input.chunkCount,
            title: input.title,
            language: input.language,
            timings: input.timings,
            ...(input.pageCount ? { pageCount: input.pageCount } : {}),
            warnings: input.warnings ?? [],
            indexedAt: new Date().toISOString(),
          });
          // Scratch blobs of this and any earlier run are no longer needed.
          await blobs.deletePrefix(blobKeys.work(input.documentId));
          await documents.releaseDocuments([input.documentId], PAGE_LEASE_HOLDER);
          documentsIndexed.inc({ pipeline: 'document' });
          chunksIndexed.inc({ pipeline: 'document' }, input.chunkCount);
        }),
      );
    },

    /**
     * Records the reason and removes any chunks, so a failed document is never half-indexed;
     * unless a sync batch holds the document (this ingest gave up waiting for it, or was
     * cancelled meanwhile): then the batch's outcome stands.
     */
    async failDocument(input: { documentId: string; code: string; message: string }): Promise<void> {
      return run(async () => {
        const { held } = await documents.claimDocuments([input.documentId], PAGE_LEASE_HOLDER, PAGE_LEASE_MS);
        if (held.length === 0) {
          await chunkIndex.deleteDocumentChunks(input.documentId);
          await documents.updateDocument(input.documentId, {
            status: DocumentStatus.FAILED,
            chunkCount: 0,
            error: { code: input.code, message: input.message },
          });
          documentsFailed.inc({ pipeline: 'document', code: errorCodeLabel({ code: input.code }) });
        }
        await blobs.deletePrefix(blobKeys.work(input.documentId));
        await documents.releaseDocuments([input.documentId], PAGE_LEASE_HOLDER);
      });
    },
  };
}

export type IngestActivities = ReturnType<typeof createIngestActivities>;

/** The permanent failure of an ingest whose document was deleted while it wrote. */
function deletedDuringIndexing(documentId: string): ApplicationFailure {
  return ApplicationFailure.create({
    nonRetryable: true,
    type: TroveErrorCode.DocumentNotFound,
    message: `document ${documentId} was deleted during indexing`,
  });
}

export const MAX_WARNINGS = 50;

/**
 * Brings a document's current original into blob storage (a source item is fetched from its
 * source; an upload is there already) and marks it INDEXING. `document` is the record as read
 * (undefined: deleted), `source` its source. Permanent failures: DOCUMENT_NOT_FOUND when the
 * document (or its original) is gone, the deletion's refusal when its owner is being deleted.
 */
export async function fetchForIngest(
  deps: Pick<IngestDependencies, 'writeChecks' | 'documents' | 'blobs' | 'connectors' | 'limits'>,
  documentId: string,
  document: TroveDocument | undefined,
  source: Source | undefined,
): Promise<FetchedDocument> {
  const { writeChecks, documents, blobs } = deps;
  const started = Date.now();
  let sourceType: SourceType | undefined;
  if (document && source && document.externalId) {
    // A source item: fetch its current version into blob storage first.
    sourceType = source.type;
    const item = document;
    // Its project or source started being deleted meanwhile: the stored copy goes back out.
    const { changes } = await guardedDocumentWrite(
      writeChecks,
      [item],
      async () => {
        const fetched = await withHeartbeats({ fetching: item.externalId }, () =>
          fetchSourceItem(deps, source, item),
        );
        await documents.updateDocument(item.id, fetched.changes);
        return fetched;
      },
      () => blobs.deletePrefix(blobKeys.originals(item.id)),
    );
    // The document itself was deleted meanwhile: take the stored copy back out rather than leave an orphan.
    if (!(await documents.getDocument(document.id))) {
      await blobs.deletePrefix(blobKeys.originals(document.id));
      document = undefined;
    } else {
      document = { ...document, ...changes };
    }
  }
  if (!document) {
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: TroveErrorCode.DocumentNotFound,
      message: `document ${documentId} was deleted before it could be indexed`,
    });
  }
  // An upload (or a stored copy) over the size limit is never read.
  checkDocumentSize(deps, document);
  if (!(await blobs.exists(document.blobKey))) {
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: TroveErrorCode.DocumentNotFound,
      message: `the original file of ${document.fileName} is missing from blob storage (${document.blobKey})`,
    });
  }
  await documents.updateDocument(document.id, {
    status: DocumentStatus.INDEXING,
    error: null,
    progress: null,
  });
  return fetchedDocument(document, sourceType, Date.now() - started);
}

/** What the later stages need of a document whose current original is in blob storage. */
export function fetchedDocument(
  document: TroveDocument,
  sourceType: SourceType | undefined,
  ms: number,
): FetchedDocument {
  return {
    documentId: document.id,
    projectId: document.projectId,
    fileName: document.fileName,
    mediaType: document.mediaType,
    blobKey: document.blobKey,
    workPrefix: blobKeys.workVersion(document.id, document.contentHash),
    ...(document.externalId ? { externalId: document.externalId } : {}),
    ...(document.url ? { url: document.url } : {}),
    ...(sourceType ? { sourceType } : {}),
    ms,
  };
}

/** How the document is chunked: by the current chunking settings, under its ids. */
export async function chunkJob(
  deps: Pick<IngestDependencies, 'chunking'>,
  fetched: FetchedDocument,
): Promise<ChunkJob> {
  return {
    options: await deps.chunking(),
    context: { documentId: fetched.documentId, projectId: fetched.projectId },
  };
}

/** The document's chunks, each with its citation (its connector makes a source item's). */
export function withCitations(
  deps: Pick<IngestDependencies, 'connectors'>,
  fetched: FetchedDocument,
  { chunks, summary }: ChunkedFile,
): Chunk[] {
  return chunks.map((chunk) => ({ ...chunk, citation: citation(deps.connectors, fetched, summary, chunk) }));
}

/** The worker's document limits. */
export function documentLimits(deps: Pick<IngestDependencies, 'limits'>): DocumentLimits {
  return deps.limits ?? DEFAULT_DOCUMENT_LIMITS;
}

/** Fails (permanently) a document whose recorded original is over the size limit, before it is read. */
export function checkDocumentSize(
  deps: Pick<IngestDependencies, 'limits'>,
  document: Pick<TroveDocument, 'fileName' | 'sizeBytes'>,
): void {
  checkDocumentLimit(documentLimits(deps), 'maxBytes', document.fileName, document.sizeBytes);
}

/**
 * Fetches a source item's current version into blob storage; returns the record's new fields
 * (`changes`) and the bytes stored. The connector is asked to refuse an item over the size limit
 * before reading it; one that could not tell is refused here, before it is stored or parsed.
 */
export async function fetchSourceItem(
  deps: Pick<IngestDependencies, 'blobs' | 'connectors' | 'limits'>,
  source: Source,
  document: TroveDocument,
): Promise<{ changes: Partial<TroveDocument>; data: Buffer }> {
  const { maxBytes } = documentLimits(deps);
  const item = await deps.connectors.for(source).fetch(source, document.externalId!, { maxBytes });
  checkDocumentLimit(documentLimits(deps), 'maxBytes', document.externalId!, item.data.length);
  const contentHash = createHash('sha256').update(item.data).digest('hex');
  const blobKey = blobKeys.original(document.id, contentHash);
  await deps.blobs.put(blobKey, item.data);
  const changes: Partial<TroveDocument> = {
    blobKey,
    contentHash,
    sizeBytes: item.data.length,
    mediaType: item.mediaType,
    version: item.version,
    ...(item.fileName ? { fileName: item.fileName } : {}),
    ...(item.title ? { title: item.title } : {}),
    ...(item.url ? { url: item.url } : {}),
    ...(item.breadcrumb ? { breadcrumb: item.breadcrumb } : {}),
  };
  return { changes, data: item.data };
}

/**
 * Where a citation of the chunk points: the page's public URL with the heading anchor (MkDocs,
 * web pages), the place the connector names (a Notion block), or the API's copy of the original,
 * opened at the page (PDF; a presentation's slide), the sheet and rows (spreadsheets, CSV) or the
 * anchor (HTML). Stored as data; the API renders links.
 */
function citation(
  connectors: SourceConnectors,
  fetched: FetchedDocument,
  parsed: Pick<ParsedSummary, 'url'>,
  chunk: Chunk,
): Citation {
  const { documentId } = fetched;
  const anchored = (url: string) => (chunk.anchor ? `${url}#${encodeURIComponent(chunk.anchor)}` : url);
  if (parsed.url) return { kind: 'source', documentId, url: anchored(parsed.url), ...place(chunk) };
  if (fetched.sourceType && fetched.externalId) {
    const connector = connectors.ofType(fetched.sourceType);
    const url = connector.citationUrl
      ? connector.citationUrl({ externalId: fetched.externalId, url: fetched.url }, chunk.anchor)
      : fetched.url && anchored(fetched.url);
    if (url) return { kind: 'source', documentId, url, ...place(chunk) };
  }
  return {
    kind: 'original',
    documentId,
    ...(chunk.page ? { page: chunk.page } : {}),
    ...sheetPlace(chunk),
    ...(chunk.anchor && fetched.mediaType === MEDIA_TYPES.html ? { anchor: chunk.anchor } : {}),
  };
}

function place(chunk: Chunk): Pick<Citation, 'page' | 'anchor' | 'sheet' | 'rowStart' | 'rowEnd'> {
  return {
    ...(chunk.page ? { page: chunk.page } : {}),
    ...sheetPlace(chunk),
    ...(chunk.anchor ? { anchor: chunk.anchor } : {}),
  };
}

/** Spreadsheets and CSV files: the sheet and the rows the chunk's table rows span. */
function sheetPlace(chunk: Chunk): Pick<Citation, 'sheet' | 'rowStart' | 'rowEnd'> {
  return {
    ...(chunk.sheet ? { sheet: chunk.sheet } : {}),
    ...(chunk.rowStart ? { rowStart: chunk.rowStart, rowEnd: chunk.rowEnd ?? chunk.rowStart } : {}),
  };
}

export function dominantLanguage(chunks: Chunk[]): string {
  const tokens = new Map<string, number>();
  for (const chunk of chunks)
    tokens.set(chunk.language, (tokens.get(chunk.language) ?? 0) + chunk.tokenCount);
  return [...tokens.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'und';
}

/**
 * Writes a scan's OCR progress to the document (what the dashboard and the API show while it is
 * INDEXING): at most every PROGRESS_WRITE_MS, the last page always, one write at a time. A failed
 * write is dropped: progress is a display, never a reason to fail the parse.
 */
export function documentProgressWriter(
  documents: Pick<DocumentRecords, 'updateDocument'>,
  documentId: string,
  now: () => number = Date.now,
): { page: (page: number, pageCount?: number) => void; flush: () => Promise<void> } {
  let lastWrite = -Infinity;
  let pending: DocumentProgress | undefined;
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    const progress = pending;
    pending = undefined;
    if (!progress) return writing;
    lastWrite = now();
    writing = writing.then(() => documents.updateDocument(documentId, { progress }).catch(() => undefined));
    return writing;
  };
  return {
    page(page, pageCount) {
      pending = { stage: 'ocr', page, ...(pageCount && { pageCount }), at: new Date(now()).toISOString() };
      if (now() - lastWrite >= PROGRESS_WRITE_MS || page === pageCount) void write();
    },
    flush: () => write(),
  };
}
