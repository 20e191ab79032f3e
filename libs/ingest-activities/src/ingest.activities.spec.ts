import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import type {
  Chunk,
  DocumentLimits,
  EmbeddingProvider,
  FetchedItem,
  ParsedBlock,
  TroveDocument,
} from '@trove/domain';
import {
  blobKeys,
  DEFAULT_DOCUMENT_LIMITS,
  DocumentStatus,
  sourceItemGone,
  sourceUnauthorized,
  TroveErrorCode,
} from '@trove/domain';
import { embeddingError, embeddingTimeout } from '@trove/embeddings';
import { InProcessParser, MEDIA_TYPES, ParserRegistry } from '@trove/parsing';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  FakeConnector,
  FAKE_PLACEHOLDER_MEDIA_TYPE,
  InMemoryBlobStore,
  InMemoryCatalog,
  PARSER_NOT_USED,
  RecordingChunkIndex,
  runActivity,
} from './fakes.testing';
import { WEB_SOURCE_TYPE } from '@trove/connector-web';
import { createIngestActivities, documentProgressWriter, type FetchedDocument } from './ingest.activities';
import { SourceConnectors } from './source-connectors';

function setup(options: { limits?: DocumentLimits } = {}) {
  const catalog = new InMemoryCatalog();
  const blobs = new InMemoryBlobStore();
  const connector = new FakeConnector();
  const source = catalog.newSource();
  const activities = createIngestActivities({
    ...catalog.ports(),
    blobs,
    parsers: new InProcessParser(ParserRegistry.default()),
    chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
    embedder: {} as EmbeddingProvider,
    chunkIndex: new RecordingChunkIndex(),
    batchSize: 16,
    connectors: new SourceConnectors([connector], { complete: false }),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  /** A source item's record as a plan creates it: a placeholder, not fetched yet. */
  const planned = (externalId: string): TroveDocument =>
    catalog.newItem(source, externalId, {
      status: DocumentStatus.PENDING,
      fileName: connector.placeholder(externalId).fileName,
      mediaType: FAKE_PLACEHOLDER_MEDIA_TYPE,
      sizeBytes: 0,
      contentHash: '',
      blobKey: '',
    });
  return { catalog, blobs, connector, source, activities, planned };
}

const page: FetchedItem = {
  data: Buffer.from('<html><body><h1 id="install">Install</h1><p>Run it.</p></body></html>'),
  mediaType: MEDIA_TYPES.html,
  version: 'etag-2',
  fileName: 'guide.html',
  title: 'Guide',
  url: 'https://example.test/guide',
  breadcrumb: ['Docs', 'Guide'],
};

describe('fetchDocument of a source item', () => {
  it("stores the connector's bytes under the original's key and records the item's version, link, title and place", async () => {
    const ctx = setup();
    const document = ctx.planned('https://example.test/guide');
    ctx.connector.items.set('https://example.test/guide', page);

    const fetched = await runActivity(ctx.activities.fetchDocument, { documentId: document.id });

    const hash = createHash('sha256').update(page.data).digest('hex');
    const blobKey = blobKeys.original(document.id, hash);
    expect(await ctx.blobs.get(blobKey)).toEqual(page.data);
    expect(ctx.catalog.documents.get(document.id)).toMatchObject({
      status: DocumentStatus.INDEXING,
      blobKey,
      contentHash: hash,
      sizeBytes: page.data.length,
      mediaType: MEDIA_TYPES.html,
      fileName: 'guide.html',
      version: 'etag-2',
      title: 'Guide',
      url: 'https://example.test/guide',
      breadcrumb: ['Docs', 'Guide'],
    });
    expect(fetched).toMatchObject({
      documentId: document.id,
      projectId: ctx.source.projectId,
      fileName: 'guide.html',
      mediaType: MEDIA_TYPES.html,
      blobKey,
      workPrefix: blobKeys.workVersion(document.id, hash),
      externalId: 'https://example.test/guide',
      url: 'https://example.test/guide',
      sourceType: WEB_SOURCE_TYPE,
    });
  });

  it('keeps the placeholder file name when the connector gives none', async () => {
    const ctx = setup();
    const document = ctx.planned('p1');
    ctx.connector.items.set('p1', { data: Buffer.from('{}'), mediaType: 'application/json', version: 'v1' });
    const fetched = await runActivity(ctx.activities.fetchDocument, { documentId: document.id });
    expect(fetched.fileName).toBe('fake:p1');
    expect(fetched).not.toHaveProperty('url');
  });

  it.each([
    [TroveErrorCode.SourceItemGone, sourceItemGone('HTTP 404')],
    [TroveErrorCode.SourceUnauthorized, sourceUnauthorized('HTTP 401')],
  ])(
    '%s from the connector fails the fetch for good with that type, storing nothing',
    async (code, error) => {
      const ctx = setup();
      const document = ctx.planned('p1');
      ctx.connector.items.set('p1', error);

      const failure = await runActivity(ctx.activities.fetchDocument, { documentId: document.id }).catch(
        (e: unknown) => e,
      );

      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: code, nonRetryable: true, message: error.message });
      expect(ctx.blobs.keys()).toEqual([]);
      expect(ctx.catalog.documents.get(document.id)).toEqual(document);
    },
  );

  it('a plain error from the connector stays retryable', async () => {
    const ctx = setup();
    const document = ctx.planned('p1');
    const error = new Error('socket hang up');
    ctx.connector.items.set('p1', error);
    await expect(runActivity(ctx.activities.fetchDocument, { documentId: document.id })).rejects.toBe(error);
  });

  it('takes the stored copy back out when the document was deleted during the fetch', async () => {
    const ctx = setup();
    const document = ctx.planned('p1');
    ctx.connector.fetch = async () => {
      ctx.catalog.documents.delete(document.id); // a FULL sync or a webhook removed it meanwhile
      return page;
    };

    const failure = await runActivity(ctx.activities.fetchDocument, { documentId: document.id }).catch(
      (e: unknown) => e,
    );

    expect(failure).toMatchObject({ type: TroveErrorCode.DocumentNotFound, nonRetryable: true });
    expect(ctx.blobs.keys()).toEqual([]);
  });
});

describe('fetchDocument and the document size limit', () => {
  const limits = { ...DEFAULT_DOCUMENT_LIMITS, maxBytes: 50 };

  it('asks the connector for at most the limit, and fails an item it hands back larger for good, storing nothing', async () => {
    const ctx = setup({ limits });
    const document = ctx.planned('https://example.test/guide');
    ctx.connector.items.set('https://example.test/guide', page);

    const failure = await runActivity(ctx.activities.fetchDocument, { documentId: document.id }).catch(
      (e: unknown) => e,
    );

    expect(ctx.connector.fetchCalls).toEqual([{ externalId: 'https://example.test/guide', maxBytes: 50 }]);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: TroveErrorCode.PayloadTooLarge,
      nonRetryable: true,
      message: `https://example.test/guide has ${page.data.length} bytes, over the limit of 50 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)`,
    });
    expect(ctx.blobs.keys()).toEqual([]);
  });

  it('fails an upload over the limit from its recorded size, before its original is looked at', async () => {
    const ctx = setup({ limits });
    // Its original is not even there: the size decides first.
    const upload = ctx.catalog.newItem(ctx.source, 'unused', {
      sourceId: undefined,
      externalId: undefined,
      fileName: 'huge.txt',
      sizeBytes: 125_829_039,
      blobKey: blobKeys.upload('u1', 'x'),
      status: DocumentStatus.PENDING,
    });

    const failure = await runActivity(ctx.activities.fetchDocument, { documentId: upload.id }).catch(
      (e: unknown) => e,
    );

    expect(failure).toMatchObject({
      type: TroveErrorCode.PayloadTooLarge,
      nonRetryable: true,
      message:
        'huge.txt has 125,829,039 bytes, over the limit of 50 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
    });
  });
});

describe('chunkDocument citations (stored as data)', () => {
  const blocks: ParsedBlock[] = [
    { kind: 'heading', text: 'Install', headingPath: ['Install'], anchor: 'step 1' },
    {
      kind: 'paragraph',
      text: 'Run the installer and wait.',
      headingPath: ['Install'],
      anchor: 'step 1',
      page: 3,
    },
  ];

  /** The citations of the chunks of `blocks`, chunked for `fetched` (parsed with `url` if given). */
  async function citations(
    ctx: ReturnType<typeof setup>,
    fetched: Partial<FetchedDocument>,
    parsed: { url?: string; blocks?: ParsedBlock[] } = {},
  ) {
    const input: FetchedDocument = {
      documentId: 'd1',
      projectId: ctx.source.projectId,
      fileName: 'guide',
      mediaType: MEDIA_TYPES.html,
      blobKey: 'originals/d1/x',
      workPrefix: 'work/d1/x',
      ms: 0,
      ...fetched,
    };
    const parsedKey = blobKeys.parsed(input.workPrefix);
    await ctx.blobs.putJson(parsedKey, { title: 'Guide', metadata: {}, blocks, ...parsed });
    const chunked = await runActivity(ctx.activities.chunkDocument, { fetched: input, parsedKey });
    expect(chunked.chunkCount).toBeGreaterThan(0);
    const chunks = (
      await Promise.all(chunked.batchKeys.map((key) => ctx.blobs.getJson<Chunk[]>(key)))
    ).flat();
    return chunks.map((chunk) => chunk.citation);
  }

  it("a source item whose connector makes citation links cites the connector's link", async () => {
    const ctx = setup();
    const asked: unknown[] = [];
    ctx.connector.citationUrl = (item, anchor) => {
      asked.push({ item, anchor });
      return `https://notion.test/${item.externalId}#${anchor!.replace(' ', '')}`;
    };
    const cited = await citations(ctx, {
      sourceType: WEB_SOURCE_TYPE,
      externalId: 'page-1',
      url: 'https://notion.test/page-1',
    });
    expect(cited).toEqual([
      {
        kind: 'source',
        documentId: 'd1',
        url: 'https://notion.test/page-1#step1',
        anchor: 'step 1',
        page: 3,
      },
    ]);
    expect(asked).toEqual([
      { item: { externalId: 'page-1', url: 'https://notion.test/page-1' }, anchor: 'step 1' },
    ]);
  });

  it("a source item with a fetched URL and no connector links cites the URL with the chunk's anchor", async () => {
    const ctx = setup();
    const cited = await citations(ctx, {
      sourceType: WEB_SOURCE_TYPE,
      externalId: 'https://example.test/guide',
      url: 'https://example.test/guide',
    });
    expect(cited).toEqual([
      {
        kind: 'source',
        documentId: 'd1',
        url: 'https://example.test/guide#step%201',
        anchor: 'step 1',
        page: 3,
      },
    ]);
  });

  it("a parsed document's own public URL (a MkDocs page) wins over the connector's links", async () => {
    const ctx = setup();
    ctx.connector.citationUrl = () => 'https://elsewhere.test/';
    const cited = await citations(
      ctx,
      { sourceType: WEB_SOURCE_TYPE, externalId: 'guide.md' },
      { url: 'https://docs.test/guide/' },
    );
    expect(cited).toMatchObject([{ kind: 'source', url: 'https://docs.test/guide/#step%201' }]);
  });

  it("a source item with neither cites the API's copy of the original", async () => {
    const ctx = setup();
    const cited = await citations(ctx, {
      sourceType: WEB_SOURCE_TYPE,
      externalId: 'notes.txt',
      mediaType: 'text/plain',
    });
    expect(cited).toEqual([{ kind: 'original', documentId: 'd1', page: 3 }]);
  });

  it('an uploaded PDF cites its original at the page; an uploaded HTML file at the anchor', async () => {
    const ctx = setup();
    const pdf = await citations(
      ctx,
      { mediaType: MEDIA_TYPES.pdf },
      { blocks: blocks.map(({ anchor: _, ...b }) => b) },
    );
    expect(pdf).toEqual([{ kind: 'original', documentId: 'd1', page: 3 }]);
    const html = await citations(
      ctx,
      { mediaType: MEDIA_TYPES.html },
      { blocks: blocks.map(({ page: _, ...b }) => b) },
    );
    expect(html).toEqual([{ kind: 'original', documentId: 'd1', anchor: 'step 1' }]);
  });

  it("an uploaded workbook cites its original at the sheet and the rows of the chunk's table", async () => {
    const ctx = setup();
    const table = ['| Region | Q1 |', '| --- | --- |', '| North | 120 |', '| South | 90 |'].join('\n');
    const cited = await citations(
      ctx,
      { mediaType: MEDIA_TYPES.xlsx },
      {
        blocks: [{ kind: 'table', text: table, headingPath: ['Sales'], sheet: 'Sales', rowNumbers: [3, 5] }],
      },
    );
    expect(cited).toEqual([{ kind: 'original', documentId: 'd1', sheet: 'Sales', rowStart: 3, rowEnd: 5 }]);
  });
});

describe('embedChunks: a text the embedding server refuses, or an outage', () => {
  const logger = {
    log: () => undefined,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };

  /** The priority of each request the fake server received in the last `embedAt`. */
  let priorities: (string | undefined)[] = [];

  /**
   * Embeds a three-chunk batch at Temporal attempt `attempt` on `taskQueue` with a server that
   * answers `status` for a text.
   */
  async function embedAt(
    attempt: number,
    status: (text: string) => number | 'timeout',
    taskQueue = 'trove-ingest.bulk',
  ) {
    priorities = [];
    const blobs = new InMemoryBlobStore();
    const chunkOf = (position: number, heading: string, text: string): Chunk => ({
      id: `doc-1-${position}-x`,
      documentId: 'doc-1',
      projectId: 'p1',
      position,
      text,
      headingPath: [heading],
      title: 'Runbook',
      tokenCount: 3,
      contentHash: `hash-${position}`,
      language: 'en',
      hasCode: false,
      codeLanguages: [],
    });
    const embedder: EmbeddingProvider = {
      modelId: 'fake',
      dimensions: 1,
      embed: async (texts, _purpose, options) => {
        priorities.push(options?.priority);
        const failed = texts.map(status).find((s) => s !== 200);
        if (failed === 'timeout') throw embeddingTimeout(120_000);
        if (failed) throw embeddingError(failed, `inference failed (${failed})`);
        return texts.map((t) => [t.length]);
      },
      ping: async () => undefined,
    };
    const index = new RecordingChunkIndex();
    const activities = createIngestActivities({
      ...new InMemoryCatalog().ports(),
      blobs,
      parsers: PARSER_NOT_USED,
      chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
      embedder,
      chunkIndex: index,
      batchSize: 16,
      connectors: new SourceConnectors([], { complete: false }),
    });
    await blobs.putJson('work/batch-0', [
      chunkOf(0, 'Intro', 'Welcome.'),
      chunkOf(1, 'Setup', 'Install the crash-me package.'),
      chunkOf(2, 'Usage', 'Run it.'),
    ]);
    return new MockActivityEnvironment({ attempt, taskQueue }, { logger })
      .run(activities.embedChunks, { batchKey: 'work/batch-0' })
      .catch((e: unknown) => e);
  }

  const poison = (text: string) => (text.includes('crash-me') ? 500 : 200);

  it('retries a refused chunk once (it may have been a blip), then fails the document for good with EMBEDDING_REJECTED', async () => {
    const first = await embedAt(1, poison);
    expect(first).toBeInstanceOf(ApplicationFailure);
    expect(first).toMatchObject({ type: TroveErrorCode.EmbeddingRejected, nonRetryable: false });
    const failure = await embedAt(2, poison);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: TroveErrorCode.EmbeddingRejected,
      nonRetryable: true,
      message:
        'the embedding server refuses the text of chunk 2 ("Runbook › Setup") while it embeds other text, 2 attempts in a row: the embedding server answered 500: inference failed (500)',
    });
  });

  it('a batch the server times out on twice while it answers a probe fails the document for good, naming the timeout', async () => {
    const stalls = (text: string) => (text.includes('crash-me') ? 'timeout' : 200);
    const first = await embedAt(1, stalls);
    expect(first).toMatchObject({ type: TroveErrorCode.EmbeddingRejected, nonRetryable: false });
    const failure = await embedAt(2, stalls);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: TroveErrorCode.EmbeddingRejected,
      nonRetryable: true,
      message:
        'the embedding server refuses the text of chunk 1 ("Runbook › Intro") and 2 more while it embeds other text, 2 attempts in a row: ' +
        'the embedding server did not answer within 120 s (TROVE_EMBEDDING_TIMEOUT_MS), while it answers other requests',
    });
  });

  it("asks the embedder client for its lane's priority: a webhook edit's passages go ahead of an import's", async () => {
    await embedAt(1, () => 200, 'trove-ingest.interactive');
    expect(priorities).toEqual(['interactive']);
    await embedAt(1, () => 200, 'trove-ingest.bulk');
    expect(priorities).toEqual(['bulk']);
  });

  it('names the project to the embedder client, and cancelling the activity aborts its request there', async () => {
    const blobs = new InMemoryBlobStore();
    const seen: { tenant?: string; aborted: boolean }[] = [];
    let reached: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => (reached = resolve));
    const embedder: EmbeddingProvider = {
      modelId: 'fake',
      dimensions: 1,
      // A server that never answers: only the caller's abort ends the request.
      embed: (_texts, _purpose, options) =>
        new Promise((_resolve, reject) => {
          const request = { tenant: options?.tenant, aborted: false };
          seen.push(request);
          options?.signal?.addEventListener('abort', () => {
            request.aborted = true;
            reject(options.signal!.reason as Error);
          });
          reached();
        }),
      ping: async () => undefined,
    };
    const activities = createIngestActivities({
      ...new InMemoryCatalog().ports(),
      blobs,
      parsers: PARSER_NOT_USED,
      chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
      embedder,
      chunkIndex: new RecordingChunkIndex(),
      batchSize: 16,
      connectors: new SourceConnectors([], { complete: false }),
    });
    await blobs.putJson('work/batch-0', [
      {
        id: 'doc-1-0-x',
        documentId: 'doc-1',
        projectId: 'project-7',
        position: 0,
        text: 'Welcome.',
        headingPath: [],
        title: 'Runbook',
        tokenCount: 1,
        contentHash: 'hash-0',
        language: 'en',
        hasCode: false,
        codeLanguages: [],
      } satisfies Chunk,
    ]);
    const env = new MockActivityEnvironment({ taskQueue: 'trove-ingest.bulk' }, { logger });
    const running = env.run(activities.embedChunks, { batchKey: 'work/batch-0' }).catch((e: unknown) => e);
    await atServer;
    env.cancel();
    const failure = await running;
    expect(failure).toBeInstanceOf(Error);
    expect(seen).toEqual([{ tenant: 'project-7', aborted: true }]);
  });

  it('an outage (every request fails, the probe too) stays retryable however many attempts it takes', async () => {
    const failure = await embedAt(50, () => 503);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.ServiceUnavailable, nonRetryable: false });
  });
});

describe("parseDocument: the project's OCR switch", () => {
  it('hands the parser ocr: false when the project switched OCR off, and nothing when it is on', async () => {
    const catalog = new InMemoryCatalog();
    const blobs = new InMemoryBlobStore();
    const source = catalog.newSource();
    const seen: (boolean | undefined)[] = [];
    const activities = createIngestActivities({
      ...catalog.ports(),
      blobs,
      parsers: {
        ...PARSER_NOT_USED,
        parseToJson: (input) => {
          seen.push(input.ocr);
          const document = { title: 'Scan', metadata: {}, blocks: [{ kind: 'paragraph', text: 'x' }] };
          const json = new TextEncoder().encode(JSON.stringify(document));
          return Promise.resolve({ json, summary: { title: 'Scan', metadata: {} } });
        },
      },
      chunking: async () => ({ targetTokens: 400, overlapTokens: 0 }),
      embedder: {} as EmbeddingProvider,
      chunkIndex: new RecordingChunkIndex(),
      batchSize: 16,
      connectors: new SourceConnectors([new FakeConnector()], { complete: false }),
    });
    await blobs.put('originals/scan', Buffer.from('png'));
    const fetched: FetchedDocument = {
      documentId: 'doc-1',
      projectId: source.projectId,
      fileName: 'scan.png',
      mediaType: MEDIA_TYPES.png,
      blobKey: 'originals/scan',
      workPrefix: 'work/doc-1/v1',
      ms: 0,
    };
    await runActivity(activities.parseDocument, fetched);
    const project = catalog.projects.get(source.projectId)!;
    catalog.projects.set(project.id, { ...project, settings: { ocr: false } });
    await runActivity(activities.parseDocument, fetched);
    expect(seen).toEqual([undefined, false]);
  });
});

describe('documentProgressWriter: OCR progress of a long scan', () => {
  it('writes at most every two seconds, the last page always, and what is pending on flush', async () => {
    const writes: unknown[] = [];
    let clock = 0;
    const writer = documentProgressWriter(
      { updateDocument: (_id, changes) => Promise.resolve(void writes.push(changes.progress)) },
      'doc-1',
      () => clock,
    );
    writer.page(1, 5); // first: written
    clock = 500;
    writer.page(2, 5); // too soon: kept
    clock = 2_100;
    writer.page(3, 5); // written
    clock = 2_200;
    writer.page(4, 5); // kept, then replaced by the last page
    writer.page(5, 5); // the last page: written at once
    await writer.flush(); // nothing left
    expect(writes.map((p) => (p as { page: number }).page)).toEqual([1, 3, 5]);
    expect(writes[2]).toMatchObject({ stage: 'ocr', page: 5, pageCount: 5 });

    const unknownCount: unknown[] = [];
    const second = documentProgressWriter(
      { updateDocument: (_id, changes) => Promise.resolve(void unknownCount.push(changes.progress)) },
      'doc-2',
      () => 0,
    );
    second.page(1);
    second.page(2); // same instant: kept for the flush
    await second.flush();
    expect(unknownCount.map((p) => (p as { page: number }).page)).toEqual([1, 2]);
  });

  it('never fails the parse when a write fails', async () => {
    const writer = documentProgressWriter(
      { updateDocument: () => Promise.reject(new Error('catalog down')) },
      'doc-1',
      () => 0,
    );
    writer.page(1, 2);
    await expect(writer.flush()).resolves.toBeUndefined();
  });
});
