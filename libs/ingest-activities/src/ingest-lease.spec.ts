import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { EmbeddingProvider, FetchedItem } from '@trove/domain';
import { DocumentStatus, ProjectStatus, TroveErrorCode } from '@trove/domain';
import { MEDIA_TYPES } from '@trove/parsing';
import { describe, expect, it } from 'vitest';
import {
  FakeConnector,
  InMemoryBlobStore,
  InMemoryCatalog,
  PARSER_NOT_USED,
  RecordingChunkIndex,
  runActivity,
} from './fakes.testing';
import { createIngestBatchActivities } from './ingest-batch.activities';
import { PAGE_LEASE_HOLDER } from './ingest-lease';
import { createIngestActivities, type FetchedDocument, type IngestDependencies } from './ingest.activities';
import { SourceConnectors } from './source-connectors';

const BATCH = 'batch:sync-source-1/run-1/7';
const silent = () => undefined;
const logger = { log: silent, trace: silent, debug: silent, info: silent, warn: silent, error: silent };

const page: FetchedItem = {
  data: Buffer.from('<html><body><h1>Guide</h1><p>Run it.</p></body></html>'),
  mediaType: MEDIA_TYPES.html,
  version: 'v2',
};

function setup(busyWaitMs = 0) {
  const catalog = new InMemoryCatalog();
  const blobs = new InMemoryBlobStore();
  const chunkIndex = new RecordingChunkIndex();
  const connector = new FakeConnector();
  const source = catalog.newSource();
  const deps: IngestDependencies = {
    ...catalog.ports(),
    blobs,
    parsers: PARSER_NOT_USED,
    chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
    embedder: {} as EmbeddingProvider,
    chunkIndex: chunkIndex,
    batchSize: 16,
    connectors: new SourceConnectors([connector], { complete: false }),
    busyWaitMs,
  };
  const item = (externalId: string) => {
    connector.items.set(externalId, page);
    return catalog.newItem(source, externalId, { status: DocumentStatus.PENDING });
  };
  /** Leases `id` to `holder` as a claim would, ending `inMs` from now (negative: expired). */
  const lease = (id: string, holder: string, inMs = 60_000) =>
    catalog.leases.set(id, { holder, until: Date.now() + inMs });
  return {
    catalog,
    blobs,
    chunkIndex,
    source,
    item,
    lease,
    activities: createIngestActivities(deps),
    batches: createIngestBatchActivities(deps),
  };
}

describe('the per-document ingest takes the lease of its document', () => {
  it('fetchDocument of a document a batch holds fails with the retryable DOCUMENT_BUSY, touching nothing; once released it fetches and holds it', async () => {
    const ctx = setup();
    const document = ctx.item('p1');
    ctx.lease(document.id, BATCH);

    const failure = await runActivity(ctx.activities.fetchDocument, { documentId: document.id }).catch(
      (e: unknown) => e,
    );

    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.DocumentBusy, nonRetryable: false });
    expect((failure as Error).message).toMatch(/being ingested by a sync batch/);
    expect(ctx.blobs.keys()).toEqual([]);
    expect(ctx.catalog.documents.get(document.id)).toEqual(document);
    expect(ctx.catalog.leases.get(document.id)?.holder).toBe(BATCH);

    await ctx.catalog.releaseDocuments([document.id], BATCH);
    const fetched = await runActivity(ctx.activities.fetchDocument, { documentId: document.id });
    expect(fetched.documentId).toBe(document.id);
    expect(ctx.catalog.documents.get(document.id)?.status).toBe(DocumentStatus.INDEXING);
    expect(ctx.catalog.leases.get(document.id)?.holder).toBe(PAGE_LEASE_HOLDER);
  });

  it('fetchDocument waits (heartbeating) for a batch that ends meanwhile, then fetches', async () => {
    const ctx = setup(600_000);
    const document = ctx.item('p1');
    ctx.lease(document.id, BATCH);
    const env = new MockActivityEnvironment(undefined, { logger });
    const heartbeats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => {
      heartbeats.push(details);
      // The batch ends while the fetch waits for it.
      void ctx.catalog.releaseDocuments([document.id], BATCH);
    });

    const fetched: FetchedDocument = await env.run(ctx.activities.fetchDocument, {
      documentId: document.id,
    });

    expect(heartbeats[0]).toEqual({ waitingFor: BATCH });
    expect(fetched.documentId).toBe(document.id);
    expect(ctx.catalog.leases.get(document.id)?.holder).toBe(PAGE_LEASE_HOLDER);
  });

  it("fetchDocument takes over a batch's lease past its end (a worker that died) and a per-document ingest's (the same holder)", async () => {
    const ctx = setup();
    const expired = ctx.item('p1');
    ctx.lease(expired.id, BATCH, -1);
    const crashed = ctx.item('p2');
    ctx.lease(crashed.id, PAGE_LEASE_HOLDER);
    for (const document of [expired, crashed]) {
      await runActivity(ctx.activities.fetchDocument, { documentId: document.id });
      expect(ctx.catalog.leases.get(document.id)?.holder).toBe(PAGE_LEASE_HOLDER);
    }
  });

  it('a deleted document is still DOCUMENT_NOT_FOUND for good, not busy', async () => {
    const ctx = setup();
    const failure = await runActivity(ctx.activities.fetchDocument, {
      documentId: '00000000-0000-4000-8000-000000000000',
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: TroveErrorCode.DocumentNotFound, nonRetryable: true });
  });

  it('upsertChunks writes nothing while a batch holds the document (a lease that ran out was taken): DOCUMENT_BUSY, retried', async () => {
    const ctx = setup();
    const document = ctx.item('p1');
    ctx.lease(document.id, BATCH);
    const failure = await runActivity(ctx.activities.upsertChunks, {
      documentId: document.id,
      embeddedKeys: ['work/never-read'],
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: TroveErrorCode.DocumentBusy, nonRetryable: false });
    expect(ctx.chunkIndex.deleted()).toEqual([]);
  });

  it('finalizeDocument and failDocument release the lease', async () => {
    const ctx = setup();
    const ready = ctx.item('p1');
    const failed = ctx.item('p2');
    ctx.lease(ready.id, PAGE_LEASE_HOLDER);
    ctx.lease(failed.id, PAGE_LEASE_HOLDER);

    await runActivity(ctx.activities.finalizeDocument, {
      documentId: ready.id,
      chunkCount: 1,
      title: 'Guide',
      language: 'en',
      timings: {},
    });
    await runActivity(ctx.activities.failDocument, {
      documentId: failed.id,
      code: 'PARSE_FAILED',
      message: 'bad',
    });

    expect(ctx.catalog.documents.get(ready.id)?.status).toBe(DocumentStatus.READY);
    expect(ctx.catalog.documents.get(failed.id)).toMatchObject({
      status: DocumentStatus.FAILED,
      chunkCount: 0,
    });
    expect(ctx.chunkIndex.deleted()).toEqual([failed.id]);
    expect(ctx.catalog.leases.size).toBe(0);
  });

  it("failDocument of an ingest that gave up waiting for a batch leaves the batch's document, chunks and lease alone", async () => {
    const ctx = setup();
    const document = ctx.item('p1');
    ctx.lease(document.id, BATCH);
    await runActivity(ctx.activities.failDocument, {
      documentId: document.id,
      code: TroveErrorCode.DocumentBusy,
      message: 'busy',
    });
    expect(ctx.catalog.documents.get(document.id)).toEqual(document);
    expect(ctx.chunkIndex.deleted()).toEqual([]);
    expect(ctx.catalog.leases.get(document.id)?.holder).toBe(BATCH);
  });
});

describe('a batch holds its documents while it runs', () => {
  it('hands back, untouched, the documents a per-document ingest holds', async () => {
    const ctx = setup();
    const documents = [ctx.item('p1'), ctx.item('p2')];
    for (const d of documents) ctx.lease(d.id, PAGE_LEASE_HOLDER);

    const result = await runActivity(ctx.batches.ingestBatch, { documentIds: documents.map((d) => d.id) });

    expect(result).toEqual({ ready: [], failed: [], handedBack: documents.map((d) => d.id) });
    for (const d of documents) {
      expect(ctx.catalog.documents.get(d.id)).toEqual(d);
      expect(ctx.catalog.leases.get(d.id)?.holder).toBe(PAGE_LEASE_HOLDER);
    }
  });

  it('releases its leases when it throws, and never releases a lease of another holder', async () => {
    const ctx = setup();
    const mine = ctx.item('p1');
    const theirs = ctx.item('p2');
    ctx.lease(theirs.id, PAGE_LEASE_HOLDER);
    // Its project is being deleted: the batch stops (PROJECT_DELETING) after claiming.
    ctx.catalog.projects.get(ctx.source.projectId)!.status = ProjectStatus.DELETING;
    const claims: string[][] = [];
    const claim = ctx.catalog.claimDocuments.bind(ctx.catalog);
    ctx.catalog.claimDocuments = async (...args) => {
      const result = await claim(...args);
      claims.push(result.claimed);
      return result;
    };

    const failure = await runActivity(ctx.batches.ingestBatch, { documentIds: [mine.id, theirs.id] }).catch(
      (e: unknown) => e,
    );

    expect(failure).toMatchObject({ type: TroveErrorCode.ProjectDeleting });
    expect(claims).toEqual([[mine.id]]);
    expect(ctx.catalog.leases.has(mine.id)).toBe(false);
    expect(ctx.catalog.leases.get(theirs.id)?.holder).toBe(PAGE_LEASE_HOLDER);
  });
});
