import { ApplicationFailure, Context } from '@temporalio/activity';
import { Chunker } from '@trove/chunking';
import type { Chunk, EmbeddedChunk, Source, TroveDocument } from '@trove/domain';
import {
  blobKeys,
  DocumentStatus,
  isTroveError,
  projectOcr,
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
  ingestStageDuration,
} from '@trove/metrics';
import type { ParsedSummary } from '@trove/parsing';
import { TroveAttribute, withSpan } from '@trove/tracing';
import pLimit from 'p-limit';
import { activity as run, withHeartbeats } from './activity-failure';
import { assertWritable, guardedDocumentWrite, OWNER_REFUSALS } from './write-guards';
import {
  checkDocumentSize,
  chunkJob,
  documentProgressWriter,
  dominantLanguage,
  type FetchedDocument,
  fetchedDocument,
  fetchSourceItem,
  type IndexTarget,
  embeddingOrder,
  type IngestDependencies,
  MAX_WARNINGS,
  vectorsFor,
  withCitations,
} from './ingest.activities';
import { BATCH_LEASE_MS, batchLeaseHolder } from './ingest-lease';

/** Which documents a batch ingests whole, and which it hands back to the per-document pipeline. */
export interface BatchLimits {
  /** A document whose stored original is larger than this is not fetched in a batch. */
  maxDocumentBytes: number;
  /** A document that chunks into more than this many chunks is handed back after chunking. */
  maxDocumentChunks: number;
}

/** How a workflow cuts its documents into units of ingest: the worker's settings. */
export interface IngestUnits {
  /** Units to ingest at once (batches or child workflows in flight). */
  concurrency?: number;
  /** Small documents ingested together by one activity; 1 (or unset): each its own child workflow. */
  batchDocuments?: number;
  /** Which documents a batch hands back to the per-document pipeline. */
  batchLimits?: BatchLimits;
  /** Embed every chunk again instead of reusing stored vectors (set by a REBUILD sync's plan). */
  reembed?: boolean;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxDocumentBytes: 1_000_000, maxDocumentChunks: 32 };

/**
 * Attempts a batch makes as a whole before it isolates: from this attempt on, a document whose
 * fetch, parse or embedding fails with a fault that may pass (or an unexpected error) is handed
 * back to the per-document pipeline, with its own retries, instead of holding its batch-mates.
 */
export const BATCH_ATTEMPTS_BEFORE_ISOLATING = 3;

/** How each document of a batch ended. Small: ids and short reasons only. */
export interface BatchResult {
  ready: { documentId: string; chunkCount: number; reused: number }[];
  /** Failed for good (bad input, refused text): recorded FAILED with the reason. */
  failed: { documentId: string; code: string; message: string }[];
  /**
   * Not ingested here: large, failing in a way its own pipeline retries, or held by another
   * ingest (a per-document one, which a child workflow of the same id then waits for or resumes).
   */
  handedBack: string[];
}

/** Documents of one batch fetched, parsed or chunked at once (parsing runs in the sandbox's threads). */
const PREPARE_CONCURRENCY = 4;

/** A source item's record fields as its fetch found them (written with the document's outcome). */
type Fetched = Partial<TroveDocument>;

/** A document on its way through the batch. */
interface Prepared {
  fetched: FetchedDocument;
  changes: Fetched;
  /** The parsed document without its blocks (which stay in the parsing thread). */
  parsed: ParsedSummary;
  chunks: Chunk[];
  timings: { fetchMs: number; parseMs: number; chunkMs: number };
}

type Outcome =
  | { kind: 'prepared'; prepared: Prepared }
  | { kind: 'failed'; code: string; message: string; changes?: Fetched }
  | { kind: 'handedBack' };

/**
 * Ingests many small documents in one activity: each is fetched, parsed and chunked on its own
 * (one bad file fails itself only), then the chunks of all of them are embedded in shared
 * requests, written with one bulk request per index, their earlier versions' chunks removed with
 * one query, and their records updated in one transaction. Per-document results are what the
 * per-document pipeline would record: the same statuses, errors, chunk ids and citations.
 *
 * Re-running a batch (a retry after a crash, a re-delivered run) is safe for the same reasons
 * the per-document pipeline is: chunk ids are deterministic and stale chunks are removed. While
 * it runs, the batch holds its documents' ingest leases, so no per-document ingest writes one of
 * them at the same time; a document another ingest holds is handed back untouched.
 */
export function createIngestBatchActivities(deps: IngestDependencies) {
  const { writeChecks, blobs, parsers, embedder, chunkIndex, batchSize } = deps;
  const targets = async (): Promise<IndexTarget[]> =>
    deps.generations ? deps.generations.writable() : [{ index: chunkIndex, embedder }];

  return {
    async ingestBatch(input: {
      documentIds: string[];
      limits?: BatchLimits;
      /** Embed every chunk again (a REBUILD sync) instead of reusing stored vectors. */
      reembed?: boolean;
    }): Promise<BatchResult> {
      return run(async () => {
        const context = Context.current();
        const limits = input.limits ?? DEFAULT_BATCH_LIMITS;
        const isolating = context.info.attempt >= BATCH_ATTEMPTS_BEFORE_ISOLATING;
        const signal = context.cancellationSignal;
        // Its own turn at the embedder: a batch holds one project's documents (one sync or upload run).
        let order = embeddingOrder();
        const result: BatchResult = { ready: [], failed: [], handedBack: [] };
        const startedAt = Date.now();
        const sources = new Map<string, Source>();
        // Whether each project of the batch reads scans and images by OCR (its setting).
        const ocrByProject = new Map<string, boolean>();

        return withHeartbeats({ documents: input.documentIds.length }, async () => {
          // One statement each way; a retried attempt has the same holder and takes its leases back.
          const holder = batchLeaseHolder(context.info);
          const claim = await deps.documents.claimDocuments(input.documentIds, holder, BATCH_LEASE_MS);
          try {
            return await ingest(new Set(claim.held.map((h) => h.id)));
          } finally {
            await deps.documents.releaseDocuments(claim.claimed, holder).catch((error: unknown) => {
              // Not worth failing the batch over: the leases end by themselves soon.
              context.log.warn('could not release the batch leases', { error: String(error) });
            });
          }
        });

        /** The batch without the documents `held` by another ingest, which are handed back. */
        async function ingest(held: Set<string>): Promise<BatchResult> {
          const documentIds = input.documentIds.filter((id) => !held.has(id));
          result.handedBack.push(...input.documentIds.filter((id) => held.has(id)));
          if (documentIds.length === 0) return result;
          const documents = new Map((await deps.documents.getDocuments(documentIds)).map((d) => [d.id, d]));
          // Nothing is fetched or written for a project or source that is being deleted.
          const owners = uniqueOwners([...documents.values()]);
          order = embeddingOrder(owners[0]?.projectId);
          for (const owner of owners) await assertWritable(writeChecks, owner);
          for (const { sourceId } of owners)
            if (sourceId) sources.set(sourceId, await deps.sources.requireSource(sourceId));
          for (const projectId of new Set(owners.map((o) => o.projectId)))
            ocrByProject.set(projectId, projectOcr(await writeChecks.requireActiveProject(projectId)));
          // INDEXING while the batch works on them: one statement for the batch. A source item's
          // new fields (version, original, size) are written with its outcome, also in one.
          await deps.documents.updateDocuments(
            [...documents.keys()].map((id) => ({
              id,
              changes: { status: DocumentStatus.INDEXING, error: null, progress: null },
            })),
          );

          // 1. Fetch, parse, chunk: each document on its own.
          const limit = pLimit(PREPARE_CONCURRENCY);
          const outcomes = await Promise.all(
            documentIds.map((id) =>
              limit(() => {
                signal.throwIfAborted();
                const document = documents.get(id);
                return withSpan(
                  'ingest.prepare',
                  {
                    [TroveAttribute.stage]: 'fetch-parse-chunk',
                    [TroveAttribute.documentId]: id,
                    [TroveAttribute.projectId]: document?.projectId,
                    [TroveAttribute.sourceId]: document?.sourceId ?? undefined,
                  },
                  () => prepare(id, document),
                );
              }),
            ),
          );
          const prepared: Prepared[] = [];
          const failedChanges = new Map<string, Fetched>();
          outcomes.forEach((outcome, i) => {
            const documentId = documentIds[i];
            if (outcome.kind === 'prepared') prepared.push(outcome.prepared);
            else if (outcome.kind === 'failed') {
              result.failed.push({ documentId, code: outcome.code, message: outcome.message });
              if (outcome.changes) failedChanges.set(documentId, outcome.changes);
            } else result.handedBack.push(documentId);
          });

          // 2. Embed every chunk of the batch in shared requests, per live index generation.
          const live = await targets();
          signal.throwIfAborted();
          const embedStarted = Date.now();
          const { vectors, reused, rejected } = await withSpan(
            'ingest.embed',
            { [TroveAttribute.stage]: 'embed', [TroveAttribute.documentCount]: prepared.length },
            () => embedAll(prepared, live[0]),
          );
          const embedMs = Date.now() - embedStarted;
          const kept = prepared.filter((p) => {
            const reason = rejected.get(p.fetched.documentId);
            if (!reason) return true;
            if (isolating) result.handedBack.push(p.fetched.documentId);
            else throw reason; // retried as a batch first: a refusal may be the server restarting
            return false;
          });

          // 3. Write: earlier versions' chunks out (one query, no forced refresh), then one bulk per
          // index (and per 500 chunks), each waiting for the scheduled refresh, so the documents are
          // searchable, old chunks gone, when they turn READY.
          signal.throwIfAborted();
          const upsertStarted = Date.now();
          const chunks: EmbeddedChunk[] = kept.flatMap((p) =>
            p.chunks.map((c) => ({
              ...c,
              embedding: vectors.get(c.contentHash)!,
              embeddingModel: live[0].embedder.modelId,
            })),
          );
          const keptIds = kept.map((p) => p.fetched.documentId);
          await withSpan(
            'ingest.upsert',
            { [TroveAttribute.stage]: 'upsert', [TroveAttribute.count]: chunks.length },
            // A project or source of the batch started being deleted while we were writing: the
            // batch's chunks go back out.
            () =>
              guardedDocumentWrite(
                writeChecks,
                owners,
                async () => {
                  await chunkIndex.deleteStaleChunks(
                    kept.map((p) => ({
                      documentId: p.fetched.documentId,
                      keepIds: p.chunks.map((c) => c.id),
                    })),
                    { beforeWaitedWrite: true },
                  );
                  for (const target of live) {
                    const model = target.embedder.modelId;
                    for (let i = 0; i < chunks.length; i += UPSERT_CHUNKS) {
                      const slice = chunks.slice(i, i + UPSERT_CHUNKS);
                      const sliceVectors =
                        target === live[0]
                          ? slice.map((c) => c.embedding)
                          : (await vectorsFor(slice, target, order)).vectors;
                      await target.index.upsert(
                        slice.map((c, j) => ({ ...c, embedding: sliceVectors[j] })),
                        model,
                        { waitForRefresh: true },
                      );
                    }
                  }
                },
                () => chunkIndex.deleteDocumentsChunks(keptIds),
              ),
          );
          const upsertMs = Date.now() - upsertStarted;

          // 4. A document deleted while we were writing fails, its new original taken back out.
          const still = new Map((await deps.documents.getDocuments(keptIds)).map((d) => [d.id, d]));
          const vanished = keptIds.filter((id) => !still.has(id));
          for (const documentId of vanished) {
            // Its new original was stored after the document's own blobs were removed.
            await blobs.deletePrefix(blobKeys.originals(documentId));
            result.failed.push({
              documentId,
              code: TroveErrorCode.DocumentNotFound,
              message: `document ${documentId} was deleted during indexing`,
            });
          }

          // 5. Records: READY ones with their counts and timings, FAILED ones with their reasons.
          const finalizeStarted = Date.now();
          const totalChunks = Math.max(
            1,
            kept.reduce((n, p) => n + p.chunks.length, 0),
          );
          const readyUpdates = kept
            .filter((p) => still.has(p.fetched.documentId))
            .map((p) => {
              // The batch's shared stages, attributed to each document by its share of the chunks.
              const share = p.chunks.length / totalChunks;
              const timings = {
                ...p.timings,
                embedMs: Math.round(embedMs * share),
                upsertMs: Math.round(upsertMs * share),
                totalMs: Date.now() - startedAt,
              };
              result.ready.push({
                documentId: p.fetched.documentId,
                chunkCount: p.chunks.length,
                reused: p.chunks.filter((c) => reused.has(c.contentHash)).length,
              });
              return {
                id: p.fetched.documentId,
                changes: {
                  ...p.changes,
                  status: DocumentStatus.READY,
                  error: null,
                  chunkCount: p.chunks.length,
                  title: wellFormedText(p.parsed.title),
                  language: dominantLanguage(p.chunks),
                  timings,
                  ...(p.parsed.pageCount ? { pageCount: p.parsed.pageCount } : {}),
                  warnings: (p.parsed.warnings ?? []).slice(0, MAX_WARNINGS),
                  indexedAt: new Date().toISOString(),
                },
              };
            });
          const failedIds = result.failed.map((f) => f.documentId);
          if (failedIds.length) await chunkIndex.deleteDocumentsChunks(failedIds);
          await deps.documents.updateDocuments([
            ...readyUpdates,
            ...result.failed.map((f) => ({
              id: f.documentId,
              changes: {
                ...failedChanges.get(f.documentId),
                status: DocumentStatus.FAILED,
                chunkCount: 0,
                error: { code: f.code, message: f.message },
              },
            })),
          ]);
          for (const id of [...readyUpdates.map((u) => u.id), ...failedIds])
            await blobs.deletePrefix(blobKeys.work(id));
          observeBatch(prepared, { embedMs, upsertMs, finalizeMs: Date.now() - finalizeStarted });
          return result;
        }

        /**
         * The batch in the metrics: each prepared document's fetch, parse and chunk, the batch's
         * shared embed, upsert and record stages once, and what became of each document.
         */
        function observeBatch(
          prepared: Prepared[],
          shared: { embedMs: number; upsertMs: number; finalizeMs: number },
        ): void {
          const pipeline = 'batch';
          for (const { timings } of prepared) {
            ingestStageDuration.observe({ stage: 'fetch', pipeline }, timings.fetchMs / 1000);
            ingestStageDuration.observe({ stage: 'parse', pipeline }, timings.parseMs / 1000);
            ingestStageDuration.observe({ stage: 'chunk', pipeline }, timings.chunkMs / 1000);
          }
          ingestStageDuration.observe({ stage: 'embed', pipeline }, shared.embedMs / 1000);
          ingestStageDuration.observe({ stage: 'upsert', pipeline }, shared.upsertMs / 1000);
          ingestStageDuration.observe({ stage: 'finalize', pipeline }, shared.finalizeMs / 1000);
          documentsIndexed.inc({ pipeline }, result.ready.length);
          chunksIndexed.inc(
            { pipeline },
            result.ready.reduce((n, r) => n + r.chunkCount, 0),
          );
          for (const failure of result.failed)
            documentsFailed.inc({ pipeline, code: errorCodeLabel({ code: failure.code }) });
        }

        /**
         * One document's fetch, parse and chunk; its failure is its own. A source item is fetched
         * from its source into blob storage; an upload's original is read from there.
         */
        async function prepare(documentId: string, document: TroveDocument | undefined): Promise<Outcome> {
          // Known to be large (the stored version of a source item, too): its own pipeline from the start.
          if (document && document.sizeBytes > limits.maxDocumentBytes) return { kind: 'handedBack' };
          let changes: Fetched | undefined;
          try {
            if (!document) {
              throw ApplicationFailure.create({
                nonRetryable: true,
                type: TroveErrorCode.DocumentNotFound,
                message: `document ${documentId} was deleted before it could be indexed`,
              });
            }
            const fetchStarted = Date.now();
            const source = document.sourceId ? sources.get(document.sourceId) : undefined;
            let data: Buffer;
            let current = document;
            if (source && document.externalId) {
              ({ changes, data } = await fetchSourceItem(deps, source, document));
              current = { ...document, ...changes };
            } else {
              checkDocumentSize(deps, document);
              data = await original(document);
            }
            const fetched = fetchedDocument(
              current,
              source && document.externalId ? source.type : undefined,
              Date.now() - fetchStarted,
            );
            // Large once fetched: handed back before a parse that its own pipeline would repeat.
            if (data.length > limits.maxDocumentBytes) return { kind: 'handedBack' };
            // Parsed and chunked in one call to a parsing thread: the parsed document stays there.
            const parseStarted = Date.now();
            const ocr = ocrByProject.get(fetched.projectId) ?? true;
            const progress = documentProgressWriter(deps.documents, documentId);
            const chunked = await parsers
              .parseAndChunk(
                { fileName: fetched.fileName, mediaType: fetched.mediaType, data, ...(!ocr && { ocr }) },
                await chunkJob(deps, fetched),
                { signal, onProgress: progress.page },
              )
              .finally(() => progress.flush());
            const chunks = withCitations(deps, fetched, chunked);
            // A large document keeps its own pipeline: per-stage retries and progress.
            if (chunks.length > limits.maxDocumentChunks) return { kind: 'handedBack' };
            return {
              kind: 'prepared',
              prepared: {
                fetched,
                changes: changes ?? {},
                parsed: chunked.summary,
                chunks,
                timings: {
                  fetchMs: fetched.ms,
                  parseMs: Date.now() - parseStarted - chunked.chunkMs,
                  chunkMs: chunked.chunkMs,
                },
              },
            };
          } catch (error) {
            const outcome = settle(error);
            return outcome.kind === 'failed' && changes ? { ...outcome, changes } : outcome;
          }
        }

        /** An upload's stored original; DOCUMENT_NOT_FOUND if it is missing. */
        async function original(document: TroveDocument): Promise<Buffer> {
          try {
            return await blobs.get(document.blobKey);
          } catch (error) {
            if (await blobs.exists(document.blobKey)) throw error;
            throw ApplicationFailure.create({
              nonRetryable: true,
              type: TroveErrorCode.DocumentNotFound,
              message: `the original file of ${document.fileName} is missing from blob storage (${document.blobKey})`,
            });
          }
        }

        /** A permanent fault fails the document; any other is retried with the batch, then handed back. */
        function settle(error: unknown): Outcome {
          if (signal.aborted) throw error;
          const permanent =
            (error instanceof ApplicationFailure && error.nonRetryable && error.type) ||
            (isTroveError(error) && error.permanent);
          if (permanent) {
            const code = error instanceof ApplicationFailure ? error.type! : (error as { code: string }).code;
            // The owner is being deleted: the whole batch stops, as the per-document pipeline would.
            if (OWNER_REFUSALS.has(code) || code === TroveErrorCode.SourceUnauthorized) throw error;
            return { kind: 'failed', code, message: (error as Error).message };
          }
          if (isolating) return { kind: 'handedBack' };
          throw error;
        }

        /**
         * Vectors of every chunk of the batch for the ACTIVE model, by content hash: stored ones
         * reused, the rest embedded in requests of `batchSize` texts. A text the server refuses
         * marks its document, not the batch.
         */
        async function embedAll(batch: Prepared[], target: IndexTarget) {
          const all = batch.flatMap((p) => p.chunks);
          const vectors = input.reembed
            ? new Map<string, number[]>()
            : await target.index.embeddingsByContentHash(
                [...new Set(all.map((c) => c.contentHash))],
                target.embedder.modelId,
              );
          const reused = new Set(vectors.keys());
          const missing = [
            ...new Map(
              all.filter((c) => !vectors.has(c.contentHash)).map((c) => [c.contentHash, c]),
            ).values(),
          ];
          const rejected = new Map<string, Error>();
          for (let i = 0; i < missing.length; i += batchSize) {
            signal.throwIfAborted();
            const group = missing.slice(i, i + batchSize);
            let embedded: (number[] | undefined)[];
            try {
              embedded = await embedIsolatingRejections(
                target.embedder,
                group.map((c) => Chunker.embeddingText(c)),
                'passage',
                order,
              );
            } catch (error) {
              if (!(error instanceof EmbeddingRejectedError)) throw error;
              embedded = error.vectors;
              chunksFailed.inc({ code: TroveErrorCode.EmbeddingRejected }, error.rejected.length);
              for (const { index, reason } of error.rejected) {
                const chunk = group[index];
                rejected.set(
                  chunk.documentId,
                  new Error(
                    `the embedding server refuses the text of chunk ${chunk.position + 1}: ${reason}`,
                  ),
                );
              }
            }
            group.forEach((c, j) => {
              if (embedded[j]) vectors.set(c.contentHash, embedded[j]!);
            });
            chunksEmbedded.inc({ result: 'embedded' }, embedded.filter(Boolean).length);
          }
          chunksEmbedded.inc({ result: 'reused' }, all.filter((c) => reused.has(c.contentHash)).length);
          return { vectors, reused, rejected };
        }
      });
    },
  };
}

export type IngestBatchActivities = ReturnType<typeof createIngestBatchActivities>;

/** Chunks per bulk request: a few megabytes of vectors and text. */
const UPSERT_CHUNKS = 500;

function uniqueOwners(documents: TroveDocument[]): { projectId: string; sourceId?: string }[] {
  const owners = new Map<string, { projectId: string; sourceId?: string }>();
  for (const d of documents)
    owners.set(`${d.projectId}/${d.sourceId ?? ''}`, {
      projectId: d.projectId,
      ...(d.sourceId ? { sourceId: d.sourceId } : {}),
    });
  return [...owners.values()];
}
