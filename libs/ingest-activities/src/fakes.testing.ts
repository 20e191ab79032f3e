/**
 * In-memory stand-ins for the dependencies of the sync, webhook and ingest activities (catalog,
 * blob store, chunk index, a scripted source connector), for unit tests. Each fake implements
 * the ports the activities take (`DocumentRecords`, `SyncRunRecords`, `ChunkRemoval`, …), with the
 * real semantics that matter to them (idempotent `ensureSourceDocuments`, refusals for a source
 * being removed, prefix deletes): the compiler checks it against what the real classes offer.
 */
import { Readable } from 'node:stream';
import type {
  DocumentChanges,
  DocumentClaim,
  DocumentLeases,
  DocumentRecords,
  NewSourceItem,
  ProjectReads,
  SourceChanges,
  SourceItem,
  SourceItemRecords,
  SourceRecords,
  SyncRunChanges,
  SyncRunRecords,
  WriteChecks,
} from '@trove/catalog';
import type {
  BlobStat,
  BlobReader,
  BlobStore,
  ByteRange,
  Discovery,
  DiscoverOptions,
  EmbeddedChunk,
  EventWork,
  FetchedItem,
  FetchOptions,
  Project,
  Source,
  SourceConnector,
  SourceEvent,
  SyncRun,
  TroveDocument,
} from '@trove/domain';
import {
  DocumentStatus,
  newSyncRun,
  ProjectStatus,
  SourceStatus,
  SourceType,
  SyncMode,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { ChunkRemoval, ChunkWriter } from '@trove/search';
import { MockActivityEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { WEB_SOURCE_TYPE, type WebSource } from '@trove/connector-web';
import type { DocumentParser, IngestCatalog } from './ingest.activities';
import type { SyncCatalog } from './source-documents';

const silent = () => undefined;

/**
 * Runs an activity as Temporal would (heartbeats and the cancellation signal need an activity
 * context), without the worker's log lines for the failures a test provokes on purpose.
 */
export function runActivity<I, O>(fn: (input: I) => Promise<O>, input: I): Promise<O> {
  const logger = { log: silent, trace: silent, debug: silent, info: silent, warn: silent, error: silent };
  return new MockActivityEnvironment(undefined, { logger }).run(fn, input);
}

/** The parser of activities a test never parses or chunks with: every call fails. */
export const PARSER_NOT_USED: DocumentParser = {
  parseToJson: () => Promise.reject(new Error('not used here')),
  chunk: () => Promise.reject(new Error('not used here')),
  parseAndChunk: () => Promise.reject(new Error('not used here')),
};

/**
 * The catalog's records in maps, for the sync, webhook and ingest activities: one object
 * implementing every port they take, so a refusal written through one port is seen by the others.
 */
export class InMemoryCatalog
  implements
    WriteChecks,
    ProjectReads,
    SourceRecords,
    SyncRunRecords,
    SourceItemRecords,
    DocumentRecords,
    DocumentLeases
{
  readonly projects = new Map<string, Project>();
  readonly sources = new Map<string, Source>();
  readonly documents = new Map<string, TroveDocument>();
  readonly runs = new Map<string, SyncRun>();
  /** Ingest leases by document id (the columns `ingest_holder`, `ingest_lease_until`). */
  readonly leases = new Map<string, { holder: string; until: number }>();

  /** This fake as each port the activities take (their dependencies spread this in). */
  ports(): IngestCatalog & SyncCatalog {
    return { writeChecks: this, projects: this, sources: this, runs: this, documents: this };
  }

  // --- builders -------------------------------------------------------------------------------

  /** An ACTIVE project with one ACTIVE WEB source (the fake connector's type). */
  newSource(changes: Partial<WebSource> = {}): WebSource {
    const project: Project = {
      id: randomUUID(),
      name: 'p',
      status: ProjectStatus.ACTIVE,
      createdAt: now(),
    };
    this.projects.set(project.id, project);
    const source: WebSource = {
      id: randomUUID(),
      projectId: project.id,
      name: 'site',
      type: WEB_SOURCE_TYPE,
      config: { url: 'https://example.test/', maxPages: 100 },
      status: SourceStatus.ACTIVE,
      createdAt: now(),
      updatedAt: now(),
      ...changes,
    };
    this.sources.set(source.id, source);
    return source;
  }

  /** A document of a source item, READY at `version` unless told otherwise. */
  newItem(source: Source, externalId: string, changes: Partial<TroveDocument> = {}): TroveDocument {
    const document: TroveDocument = {
      id: randomUUID(),
      projectId: source.projectId,
      sourceId: source.id,
      externalId,
      fileName: externalId,
      mediaType: 'text/html',
      sizeBytes: 1,
      contentHash: 'h',
      blobKey: '',
      status: DocumentStatus.READY,
      chunkCount: 1,
      timings: {},
      createdAt: now(),
      updatedAt: now(),
      ...changes,
    };
    this.documents.set(document.id, document);
    return document;
  }

  newRun(source: Source, mode: SyncMode, changes: Partial<SyncRun> = {}): SyncRun {
    const run = { ...newSyncRun(source, mode), ...changes };
    this.runs.set(run.id, run);
    return run;
  }

  /** The documents of a source. */
  itemsOf(sourceId: string): TroveDocument[] {
    return [...this.documents.values()].filter((d) => d.sourceId === sourceId);
  }

  // --- what the activities call ---------------------------------------------------------------

  async getProject(id: string): Promise<Project | undefined> {
    return this.projects.get(id);
  }

  async requireProject(id: string): Promise<Project> {
    const project = this.projects.get(id);
    if (!project) throw new TroveError(TroveErrorCode.ProjectNotFound, `project ${id} does not exist`);
    return project;
  }

  async requireActiveProject(id: string): Promise<Project> {
    const project = await this.requireProject(id);
    if (project.status === ProjectStatus.DELETING)
      throw new TroveError(TroveErrorCode.ProjectDeleting, `project ${id} is being deleted`, {
        permanent: true,
      });
    return project;
  }

  async getSource(id: string): Promise<Source | undefined> {
    return this.sources.get(id);
  }

  async requireSource(id: string): Promise<Source> {
    const source = this.sources.get(id);
    if (!source) throw new TroveError(TroveErrorCode.SourceNotFound, `source ${id} does not exist`);
    return source;
  }

  async requireActiveSource(id: string): Promise<Source> {
    const source = await this.requireSource(id);
    if (source.status === SourceStatus.REMOVING)
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${id} is being removed`, {
        permanent: true,
      });
    await this.requireActiveProject(source.projectId);
    return source;
  }

  async updateSource(id: string, changes: SourceChanges): Promise<void> {
    const source = this.sources.get(id);
    if (source) this.sources.set(id, merge(source, changes as Partial<Source>));
  }

  async createRun(run: SyncRun): Promise<SyncRun> {
    this.runs.set(run.id, run);
    return run;
  }

  async getRun(id: string): Promise<SyncRun | undefined> {
    return this.runs.get(id);
  }

  async updateRun(id: string, changes: SyncRunChanges): Promise<void> {
    const run = this.runs.get(id);
    if (run) this.runs.set(id, merge(run, changes as Partial<SyncRun>));
  }

  async getDocument(id: string): Promise<TroveDocument | undefined> {
    return this.documents.get(id);
  }

  async getDocuments(ids: string[]): Promise<TroveDocument[]> {
    return ids.flatMap((id) => this.documents.get(id) ?? []);
  }

  async updateDocument(id: string, changes: DocumentChanges): Promise<void> {
    const document = this.documents.get(id);
    if (document) this.documents.set(id, merge(document, changes as Partial<TroveDocument>));
  }

  async updateDocuments(updates: { id: string; changes: DocumentChanges }[]): Promise<void> {
    for (const { id, changes } of updates) await this.updateDocument(id, changes);
  }

  async deleteDocument(id: string): Promise<void> {
    this.documents.delete(id);
  }

  async claimDocuments(ids: string[], holder: string, ttlMs: number): Promise<DocumentClaim> {
    const claim: DocumentClaim = { claimed: [], held: [] };
    for (const id of new Set(ids)) {
      if (!this.documents.has(id)) continue;
      const lease = this.leases.get(id);
      if (!lease || lease.holder === holder || lease.until < Date.now()) {
        this.leases.set(id, { holder, until: Date.now() + ttlMs });
        claim.claimed.push(id);
      } else {
        claim.held.push({ id, holder: lease.holder, until: new Date(lease.until).toISOString() });
      }
    }
    return claim;
  }

  async releaseDocuments(ids: string[], holder: string): Promise<void> {
    for (const id of ids) if (this.leases.get(id)?.holder === holder) this.leases.delete(id);
  }

  async sourceItems(sourceId: string): Promise<SourceItem[]> {
    return this.itemsOf(sourceId)
      .sort((a, b) => a.externalId!.localeCompare(b.externalId!))
      .map(toSourceItem);
  }

  async findSourceItems(sourceId: string, externalIds: string[]): Promise<SourceItem[]> {
    const wanted = new Set(externalIds);
    return this.itemsOf(sourceId)
      .filter((d) => wanted.has(d.externalId!))
      .map(toSourceItem);
  }

  async ensureSourceDocuments(sourceId: string, items: NewSourceItem[]): Promise<Map<string, string>> {
    const source = await this.requireActiveSource(sourceId);
    const ids = new Map<string, string>();
    for (const item of items) {
      const existing = this.itemsOf(sourceId).find((d) => d.externalId === item.externalId);
      const document =
        existing ??
        this.newItem(source, item.externalId, {
          fileName: item.fileName,
          mediaType: item.mediaType,
          status: DocumentStatus.PENDING,
          sizeBytes: 0,
          contentHash: '',
          chunkCount: 0,
        });
      ids.set(item.externalId, document.id);
    }
    return ids;
  }
}

/** Blobs in a map; `deletePrefix` removes a key and everything under it, as the file store does. */
export class InMemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, Buffer>();

  async put(key: string, data: Buffer | string): Promise<void> {
    this.blobs.set(key, Buffer.from(data));
  }

  async get(key: string): Promise<Buffer> {
    const data = this.blobs.get(key);
    if (!data) throw new Error(`no blob ${key}`);
    return data;
  }

  async getJson<T>(key: string): Promise<T> {
    return JSON.parse((await this.get(key)).toString('utf8')) as T;
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.put(key, JSON.stringify(value));
  }

  async exists(key: string): Promise<boolean> {
    return this.blobs.has(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    const root = prefix.replace(/\/+$/, '');
    for (const key of [...this.blobs.keys()])
      if (key === root || key.startsWith(`${root}/`)) this.blobs.delete(key);
  }

  /** Keys under a prefix, sorted. */
  keys(prefix = ''): string[] {
    return [...this.blobs.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    const data = this.blobs.get(key);
    return data && { sizeBytes: data.length, modifiedAt: new Date(0) };
  }

  getStream(key: string, range?: ByteRange): Readable {
    const data = this.blobs.get(key);
    if (!data) return new Readable({ read: () => undefined }).destroy(new Error(`no blob ${key}`));
    return Readable.from([range ? data.subarray(range.start, range.end + 1) : data]);
  }

  putStream(): never {
    throw new Error('not used by these activities');
  }

  async openReader(key: string): Promise<BlobReader> {
    const data = await this.get(key);
    return {
      size: data.length,
      readRange: (start, end) => Readable.from([data.subarray(start, end)]),
      read: async (start, end) => data.subarray(start, end),
      close: async () => undefined,
    };
  }

  move(): never {
    throw new Error('not used by these activities');
  }
}

/**
 * A chunk index that records what was written and which documents' chunks were deleted, and
 * answers `embeddingsByContentHash` from `known` (vectors it already holds by content hash).
 */
export class RecordingChunkIndex implements ChunkWriter, ChunkRemoval {
  /** Each `deleteDocumentsChunks` call's ids. */
  readonly deletedBatches: string[][] = [];
  /** Each `deleteDocumentChunks` call's document id. */
  readonly deletedDocuments: string[] = [];
  /** Each `deleteStaleChunks` call's documents. */
  readonly staleBatches: { documentId: string; keepIds: string[] }[][] = [];
  /** Each `deleteProjectChunks` call's project id. */
  readonly deletedProjects: string[] = [];
  /** Each `upsert` call's chunks and model. */
  readonly written: { chunks: EmbeddedChunk[]; model: string }[] = [];

  constructor(readonly known: Record<string, number[]> = {}) {}

  async embeddingsByContentHash(hashes: string[]): Promise<Map<string, number[]>> {
    return new Map(hashes.filter((h) => this.known[h]).map((h) => [h, this.known[h]]));
  }

  async upsert(chunks: EmbeddedChunk[], embeddingModel: string): Promise<void> {
    this.written.push({ chunks, model: embeddingModel });
  }

  async deleteStaleChunks(documents: { documentId: string; keepIds: string[] }[]): Promise<number> {
    this.staleBatches.push(documents);
    return 0;
  }

  async deleteProjectChunks(projectId: string): Promise<number> {
    this.deletedProjects.push(projectId);
    return 0;
  }

  async deleteDocumentsChunks(documentIds: string[]): Promise<number> {
    this.deletedBatches.push([...documentIds]);
    return documentIds.length;
  }

  async deleteDocumentChunks(documentId: string): Promise<number> {
    this.deletedDocuments.push(documentId);
    return 0;
  }

  /** Every document whose chunks were deleted, in any call. */
  deleted(): string[] {
    return [...this.deletedBatches.flat(), ...this.deletedDocuments];
  }
}

/** Placeholder record of a fake item before its first fetch. */
export const FAKE_PLACEHOLDER_MEDIA_TYPE = 'application/x-fake-placeholder';

/**
 * A connector (for WEB sources by default) whose answers the test scripts: `discovery` (or an error to throw),
 * fetched items by id, and optionally `vanished`, `reduceEvents` and `citationUrl`. Records the
 * options of every discover call.
 */
export class FakeConnector implements SourceConnector<Source> {
  discovery: Discovery | Error = discovery([]);
  readonly items = new Map<string, FetchedItem | Error>();
  readonly discoverCalls: DiscoverOptions[] = [];
  readonly fetchCalls: ({ externalId: string } & FetchOptions)[] = [];
  readonly vanishedCalls: string[][] = [];
  readonly reduceCalls: { events: SourceEvent[]; known: string[] }[] = [];
  vanished?: (source: Source, externalIds: string[]) => Promise<string[]>;
  reduceEvents?: (source: Source, events: SourceEvent[], known: ReadonlySet<string>) => Promise<EventWork>;
  citationUrl?: (item: { externalId: string; url?: string }, anchor?: string) => string | undefined;

  /** A connector for WEB sources unless told otherwise. */
  constructor(readonly type: SourceType = WEB_SOURCE_TYPE) {}

  async discover(_source: Source, options: DiscoverOptions): Promise<Discovery> {
    this.discoverCalls.push({ ...options, known: new Set(options.known) });
    if (this.discovery instanceof Error) throw this.discovery;
    options.onProgress?.({ seen: this.discovery.items.length, requests: this.discovery.requests });
    return this.discovery;
  }

  async fetch(_source: Source, externalId: string, options?: FetchOptions): Promise<FetchedItem> {
    this.fetchCalls.push({ externalId, ...options });
    const item = this.items.get(externalId);
    if (!item) throw new Error(`unscripted fetch of ${externalId}`);
    if (item instanceof Error) throw item;
    return item;
  }

  placeholder(externalId: string): { fileName: string; mediaType: string } {
    return { fileName: `fake:${externalId}`, mediaType: FAKE_PLACEHOLDER_MEDIA_TYPE };
  }

  /** Answers `vanished` with these of the known ids (recording what it was asked). */
  vanishing(gone: string[]): this {
    this.vanished = async (_source, externalIds) => {
      this.vanishedCalls.push(externalIds);
      return externalIds.filter((id) => gone.includes(id));
    };
    return this;
  }

  /** Answers `reduceEvents` with this work (recording what it was given). */
  reducingTo(work: Partial<EventWork>): this {
    this.reduceEvents = async (_source, events, known) => {
      this.reduceCalls.push({ events, known: [...known].sort() });
      return { ingest: [], gone: [], ignored: 0, resync: false, ...work };
    };
    return this;
  }
}

/** A discovery of items `id@version`, complete unless told otherwise. */
/** A listing of `id@version` items (`id@version#bytes`: with a listed size). */
export function discovery(items: string[], changes: Partial<Discovery> = {}): Discovery {
  return {
    items: items.map((item) => {
      const [listed, size] = item.split('#');
      const [externalId, version = 'v1'] = listed.split('@');
      return { externalId, version, ...(size !== undefined ? { sizeBytes: Number(size) } : {}) };
    }),
    skipped: [],
    warnings: [],
    complete: true,
    requests: 1,
    ...changes,
  };
}

function toSourceItem(document: TroveDocument): SourceItem {
  return {
    id: document.id,
    externalId: document.externalId!,
    status: document.status,
    ...(document.version ? { version: document.version } : {}),
  };
}

/** Applies changes as the repositories do: `undefined` leaves a field, `null` clears it. */
function merge<T extends object>(record: T, changes: Partial<T>): T {
  const merged = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged as T;
}

function now(): string {
  return new Date().toISOString();
}
