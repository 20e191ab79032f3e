import { createHash, randomUUID } from 'node:crypto';
import type { Client, estypes } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import type { Project, Source, SyncRun, TroveDocument } from '@trove/domain';
import {
  DocumentStatus,
  isTroveId,
  normalizeProjectName,
  projectNameKey,
  ProjectStatus,
  SourceStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { deleteMatching, elasticsearchError, IndexNames } from '@trove/search';
import { WebhookEventLog } from './webhook-events';

const KEYWORD = { type: 'keyword' as const };
/**
 * A claim whose document never appeared is left over from a crash between the two writes; after
 * this long it is taken over (a live creation writes its document within milliseconds).
 */
const STALE_CLAIM_MS = 30_000;

interface Claim {
  key: string;
  documentId: string;
  projectId: string;
  createdAt: string;
}

/** Projects and documents live in Elasticsearch too: one service fewer to run and back up. */
export class Catalog {
  private readonly names: IndexNames;
  /** Webhook event ids already accepted (replay and retry protection). */
  readonly webhookEvents: WebhookEventLog;

  constructor(
    private readonly es: Client,
    prefix: string,
  ) {
    this.names = new IndexNames(prefix);
    this.webhookEvents = new WebhookEventLog(es, this.names.webhookEvents);
  }

  async ensure(): Promise<void> {
    const indices: { index: string; properties: Record<string, estypes.MappingProperty> }[] = [
      {
        index: this.names.projects,
        properties: {
          id: KEYWORD,
          name: { type: 'text' as const, fields: { raw: KEYWORD } },
          status: KEYWORD,
          createdAt: { type: 'date' as const },
        },
      },
      { index: this.names.projectNames, properties: { projectId: KEYWORD } },
      {
        index: this.names.documents,
        properties: {
          id: KEYWORD,
          projectId: KEYWORD,
          fileName: KEYWORD,
          mediaType: KEYWORD,
          status: KEYWORD,
          contentHash: KEYWORD,
          createdAt: { type: 'date' as const },
          updatedAt: { type: 'date' as const },
          sourceId: KEYWORD,
          externalId: KEYWORD,
        },
      },
      {
        index: this.names.sources,
        properties: {
          id: KEYWORD,
          projectId: KEYWORD,
          status: KEYWORD,
          createdAt: { type: 'date' as const },
        },
      },
      {
        index: this.names.syncRuns,
        properties: {
          id: KEYWORD,
          sourceId: KEYWORD,
          projectId: KEYWORD,
          startedAt: { type: 'date' as const },
        },
      },
      {
        index: this.names.claims,
        properties: { documentId: KEYWORD, projectId: KEYWORD, createdAt: { type: 'date' as const } },
      },
      { index: this.names.webhookEvents, properties: WebhookEventLog.properties },
    ];
    try {
      const hadClaims = await this.es.indices.exists({ index: this.names.claims });
      for (const { index, properties } of indices) {
        if (await this.es.indices.exists({ index })) {
          // New fields are added in place (the mapping only ever grows).
          await this.es.indices.putMapping({ index, properties });
          continue;
        }
        await this.es.indices.create(
          {
            index,
            settings: { number_of_shards: 1, number_of_replicas: 0 },
            // Only the fields we filter on are indexed; the rest is kept in _source.
            mappings: { dynamic: false, properties },
          },
          { ignore: [400] },
        );
      }
      if (!hadClaims) await this.backfillClaims();
    } catch (error) {
      throw elasticsearchError(error, 'creating the catalog indices');
    }
  }

  /** Catalogs from before claims existed: their documents keep their names taken. */
  private async backfillClaims(): Promise<void> {
    const documents = await this.list<TroveDocument>(this.names.documents, { match_all: {} }, [
      { createdAt: 'asc' },
    ]);
    if (documents.length === 0) return;
    await this.es.bulk({
      refresh: 'wait_for',
      operations: documents.flatMap((document) => {
        const key = claimKey(document);
        const claim: Claim = {
          key,
          documentId: document.id,
          projectId: document.projectId,
          createdAt: document.createdAt,
        };
        return [{ create: { _index: this.names.claims, _id: claimId(key) } }, claim];
      }),
    });
  }

  // --- projects -------------------------------------------------------------------------------

  /**
   * Creates an ACTIVE project. Names are normalised (see normalizeProjectName) and unique,
   * case-insensitively, among projects that are not being deleted: the name is claimed first
   * with a create-if-absent write, so two concurrent creations cannot both win.
   */
  async createProject(name: string): Promise<Project> {
    const normalized = normalizeProjectName(name);
    const project: Project = {
      id: randomUUID(),
      name: normalized,
      status: ProjectStatus.ACTIVE,
      createdAt: new Date().toISOString(),
    };
    const claim = nameClaimId(normalized);
    try {
      await this.es.create({
        index: this.names.projectNames,
        id: claim,
        document: { projectId: project.id },
        refresh: 'wait_for',
      });
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 409) {
        throw new TroveError(
          TroveErrorCode.ProjectNameConflict,
          `a project named "${normalized}" already exists (names are compared ignoring case)`,
        );
      }
      throw elasticsearchError(error, 'claiming the project name');
    }
    try {
      await this.es.index({
        index: this.names.projects,
        id: project.id,
        document: project,
        refresh: 'wait_for',
      });
    } catch (error) {
      await this.releaseName(project).catch(() => undefined);
      throw elasticsearchError(error, 'creating the project');
    }
    return project;
  }

  async getProject(id: string): Promise<Project | undefined> {
    const project = await this.getById<Project>(this.names.projects, id);
    return project && { ...project, status: project.status ?? ProjectStatus.ACTIVE };
  }

  async requireProject(id: string): Promise<Project> {
    const project = await this.getProject(id);
    if (!project) throw new TroveError(TroveErrorCode.ProjectNotFound, `project ${id} does not exist`);
    return project;
  }

  /** The project, if it exists and is not being deleted: what every write to a project checks. */
  async requireActiveProject(id: string): Promise<Project> {
    const project = await this.requireProject(id);
    if (project.status === ProjectStatus.DELETING) throw projectDeleting(id);
    return project;
  }

  /** Lists projects, including those being deleted (status DELETING) until they are gone. */
  async listProjects(): Promise<Project[]> {
    const projects = await this.list<Project>(this.names.projects, { match_all: {} }, [{ createdAt: 'asc' }]);
    return projects.map((p) => ({ ...p, status: p.status ?? ProjectStatus.ACTIVE }));
  }

  /**
   * Marks the project DELETING (from then on every write is refused) and frees its name.
   * Returns the project, or undefined when it no longer exists.
   */
  async markProjectDeleting(id: string): Promise<Project | undefined> {
    const project = await this.getProject(id);
    if (!project) return undefined;
    if (project.status !== ProjectStatus.DELETING) {
      await this.write(() =>
        this.es.update({
          index: this.names.projects,
          id,
          doc: { status: ProjectStatus.DELETING },
          refresh: 'wait_for',
          retry_on_conflict: 3,
        }),
      );
    }
    await this.releaseName(project);
    return { ...project, status: ProjectStatus.DELETING };
  }

  /** Removes the project record itself; its documents, sources and runs must be gone already. */
  async deleteProject(id: string): Promise<void> {
    const project = await this.getProject(id);
    if (project) await this.releaseName(project);
    await this.write(() => this.es.delete({ index: this.names.projects, id, refresh: 'wait_for' }), [404]);
    await this.deleteProjectClaims(id);
  }

  /** Removes every document, source and sync-run record of a project. */
  async deleteProjectRecords(projectId: string): Promise<void> {
    for (const source of await this.listSources(projectId)) await this.webhookEvents.forgetSource(source.id);
    for (const index of [this.names.documents, this.names.syncRuns, this.names.sources]) {
      await this.deleteWhere(index, { term: { projectId } });
    }
  }

  /** The sync runs of every source of a project (to remove their scratch blobs). */
  async listProjectRuns(projectId: string): Promise<SyncRun[]> {
    return this.list<SyncRun>(this.names.syncRuns, { term: { projectId } }, [{ startedAt: 'asc' }]);
  }

  /** Frees the project's name, unless another project has claimed it since. */
  private async releaseName(project: Project): Promise<void> {
    const id = nameClaimId(project.name);
    const claim = await this.es
      .get<{ projectId: string }>({ index: this.names.projectNames, id }, { ignore: [404] })
      .catch((error: unknown) => {
        throw elasticsearchError(error, 'reading the project name');
      });
    if (!claim.found || claim._source?.projectId !== project.id) return;
    await this.write(
      () =>
        this.es.delete({
          index: this.names.projectNames,
          id,
          if_seq_no: claim._seq_no,
          if_primary_term: claim._primary_term,
          refresh: 'wait_for',
        }),
      [404, 409],
    );
  }

  // --- documents ------------------------------------------------------------------------------

  /** A fresh document id: random, so a link to a deleted document never reaches a newer one. */
  static newDocumentId(): string {
    return randomUUID();
  }

  /**
   * Creates the document record; a second document with the same name in the project is a
   * conflict (the name is claimed first, so concurrent uploads of one name create one document).
   * `id` lets the caller store the original under the id beforehand; it must be fresh.
   */
  async createDocument(
    input: Pick<
      TroveDocument,
      'projectId' | 'fileName' | 'mediaType' | 'sizeBytes' | 'contentHash' | 'blobKey'
    > & { id?: string },
  ): Promise<TroveDocument> {
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id: input.id ?? Catalog.newDocumentId(),
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    const key = claimKey(document);
    if ((await this.claim(key, document.id, document.projectId)) !== undefined) {
      throw new TroveError(
        TroveErrorCode.DocumentNameConflict,
        `a document named "${input.fileName}" already exists in this project; delete it or reindex it instead`,
      );
    }
    try {
      await this.es.create({ index: this.names.documents, id: document.id, document, refresh: 'wait_for' });
    } catch (error) {
      await this.releaseClaim(key, document.id);
      throw elasticsearchError(error, 'creating the document');
    }
    return document;
  }

  async getDocument(id: string): Promise<TroveDocument | undefined> {
    return this.getById<TroveDocument>(this.names.documents, id);
  }

  async requireDocument(id: string): Promise<TroveDocument> {
    const document = await this.getDocument(id);
    if (!document) throw new TroveError(TroveErrorCode.DocumentNotFound, `document ${id} does not exist`);
    return document;
  }

  async listDocuments(projectId: string): Promise<TroveDocument[]> {
    return this.list<TroveDocument>(this.names.documents, { term: { projectId } }, [{ createdAt: 'asc' }]);
  }

  /**
   * Partial update; `error: null` clears a previous failure. Missing documents are ignored
   * (deleted meanwhile). Reads by id are real-time; lists see the change within a second.
   */
  async updateDocument(
    id: string,
    changes: Partial<Omit<TroveDocument, 'id' | 'projectId' | 'error'>> & {
      error?: TroveDocument['error'] | null;
    },
  ): Promise<void> {
    await this.write(
      () =>
        this.es.update({
          index: this.names.documents,
          id,
          doc: { ...changes, updatedAt: new Date().toISOString() },
          retry_on_conflict: 3,
        }),
      [404],
    );
  }

  /** Removes the record and frees its name (or source item) for a new document. */
  async deleteDocument(id: string): Promise<void> {
    const document = await this.getDocument(id);
    await this.write(() => this.es.delete({ index: this.names.documents, id, refresh: 'wait_for' }), [404]);
    if (document) await this.releaseClaim(claimKey(document), id);
  }

  /** The documents a source produced (id, external id, edit time, status), for a sync to diff against. */
  async listSourceDocuments(sourceId: string): Promise<TroveDocument[]> {
    return this.list<TroveDocument>(this.names.documents, { term: { sourceId } }, [{ createdAt: 'asc' }]);
  }

  /**
   * Creates the record of a source item's document, or returns the existing one: the item is
   * claimed first, so re-running a sync plan (or two running at once) never duplicates it.
   */
  async ensureSourceDocument(
    input: Pick<TroveDocument, 'projectId' | 'sourceId' | 'externalId' | 'fileName' | 'mediaType'>,
  ): Promise<{ document: TroveDocument; created: boolean }> {
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id: Catalog.newDocumentId(),
      sizeBytes: 0,
      contentHash: '',
      blobKey: '',
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    const key = claimKey(document);
    const holder = await this.claim(key, document.id, document.projectId);
    if (holder !== undefined) {
      const existing = await this.awaitDocument(holder);
      if (existing) return { document: existing, created: false };
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        `the document of ${input.externalId} is being created by another sync; try again`,
      );
    }
    try {
      // No new records for a source or project being removed (a sync that slipped through).
      await this.requireActiveSource(input.sourceId!);
      await this.es.create({ index: this.names.documents, id: document.id, document, refresh: 'wait_for' });
      return { document, created: true };
    } catch (error) {
      await this.releaseClaim(key, document.id);
      throw elasticsearchError(error, 'creating a source document');
    }
  }

  /** The claimed document, waiting briefly for a creation that is under way elsewhere. */
  private async awaitDocument(id: string): Promise<TroveDocument | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const document = await this.getDocument(id);
      if (document) return document;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return undefined;
  }

  // --- claims: unique natural keys ------------------------------------------------------------

  /**
   * Claims `key` for `documentId`. Returns undefined when claimed, or the id of the document that
   * holds the key. Elasticsearch's `create` (409 when the id exists) makes this race-free.
   */
  private async claim(key: string, documentId: string, projectId: string): Promise<string | undefined> {
    const id = claimId(key);
    const claim: Claim = { key, documentId, projectId, createdAt: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.es.create({ index: this.names.claims, id, document: claim });
        return undefined;
      } catch (error) {
        if (!(error instanceof errors.ResponseError && error.statusCode === 409)) {
          throw elasticsearchError(error, 'claiming a document name');
        }
      }
      const held = await this.getClaim(id);
      if (!held) continue; // released meanwhile
      if (!(await this.isStale(held.claim))) return held.claim.documentId;
      await this.deleteClaim(id, held);
    }
    throw new TroveError(TroveErrorCode.ServiceUnavailable, 'the document name is contended; try again');
  }

  /**
   * Claims a project's documents left behind (they are freed one by one as documents are
   * deleted; this catches the rest). Search + bulk: the local Elasticsearch has no delete-by-query.
   */
  private async deleteProjectClaims(projectId: string): Promise<void> {
    await this.write(async () => {
      await this.es.indices.refresh({ index: this.names.claims });
      const response = await this.es.search({
        index: this.names.claims,
        query: { term: { projectId } },
        size: 10_000,
        _source: false,
      });
      const ids = response.hits.hits.map((hit) => hit._id!);
      if (ids.length === 0) return;
      await this.es.bulk({
        refresh: 'wait_for',
        operations: ids.map((id) => ({ delete: { _index: this.names.claims, _id: id } })),
      });
    });
  }

  /** Frees `key` if `documentId` still holds it. */
  private async releaseClaim(key: string, documentId: string): Promise<void> {
    const id = claimId(key);
    const held = await this.getClaim(id);
    if (held?.claim.documentId === documentId) await this.deleteClaim(id, held);
  }

  private async isStale(claim: Claim): Promise<boolean> {
    if (Date.now() - Date.parse(claim.createdAt) < STALE_CLAIM_MS) return false;
    return (await this.getDocument(claim.documentId)) === undefined;
  }

  private async getClaim(
    id: string,
  ): Promise<{ claim: Claim; seqNo: number; primaryTerm: number } | undefined> {
    try {
      const response = await this.es.get<Claim>({ index: this.names.claims, id }, { ignore: [404] });
      if (!response.found) return undefined;
      return { claim: response._source!, seqNo: response._seq_no!, primaryTerm: response._primary_term! };
    } catch (error) {
      throw elasticsearchError(error, 'reading a document name claim');
    }
  }

  /** Deletes the claim as read (a claim re-taken meanwhile is left alone). */
  private async deleteClaim(id: string, held: { seqNo: number; primaryTerm: number }): Promise<void> {
    await this.write(
      () =>
        this.es.delete({
          index: this.names.claims,
          id,
          if_seq_no: held.seqNo,
          if_primary_term: held.primaryTerm,
        }),
      [404, 409],
    );
  }

  // --- sources and sync runs ------------------------------------------------------------------

  async createSource(source: Source): Promise<Source> {
    await this.write(() =>
      this.es.index({ index: this.names.sources, id: source.id, document: source, refresh: 'wait_for' }),
    );
    return source;
  }

  async getSource(id: string): Promise<Source | undefined> {
    return this.getById<Source>(this.names.sources, id);
  }

  async requireSource(id: string): Promise<Source> {
    const source = await this.getSource(id);
    if (!source) throw new TroveError(TroveErrorCode.SourceNotFound, `source ${id} does not exist`);
    return source;
  }

  async listSources(projectId: string): Promise<Source[]> {
    return this.list<Source>(this.names.sources, { term: { projectId } }, [{ createdAt: 'asc' }]);
  }

  async updateSource(
    id: string,
    changes: { [K in keyof Omit<Source, 'id' | 'projectId'>]?: Source[K] | null },
  ): Promise<void> {
    await this.write(
      () =>
        this.es.update({
          index: this.names.sources,
          id,
          doc: { ...changes, updatedAt: new Date().toISOString() },
          refresh: 'wait_for',
          retry_on_conflict: 3,
        }),
      [404],
    );
  }

  /**
   * The source, if it exists, is not being removed, and its project is not being deleted:
   * what every write to a source (sync, schedule, webhook, change) checks.
   */
  async requireActiveSource(id: string): Promise<Source> {
    const source = await this.requireSource(id);
    if (source.status === SourceStatus.REMOVING) {
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${id} is being removed`, {
        permanent: true,
      });
    }
    await this.requireActiveProject(source.projectId);
    return source;
  }

  /** Marks the source REMOVING (syncs, webhooks and changes are refused from then on). */
  async markSourceRemoving(id: string): Promise<Source | undefined> {
    const source = await this.getSource(id);
    if (!source) return undefined;
    await this.updateSource(id, { status: SourceStatus.REMOVING });
    return { ...source, status: SourceStatus.REMOVING };
  }

  /** Removes the source record with its documents and sync runs. */
  async deleteSource(id: string): Promise<void> {
    // The claims of its items go with it: nothing of a removed source is left in any index.
    const documentIds = (await this.listSourceDocuments(id)).map((document) => document.id);
    for (let i = 0; i < documentIds.length; i += 1000) {
      await this.deleteWhere(this.names.claims, { terms: { documentId: documentIds.slice(i, i + 1000) } });
    }
    await this.webhookEvents.forgetSource(id);
    for (const index of [this.names.documents, this.names.syncRuns]) {
      await this.deleteWhere(index, { term: { sourceId: id } });
    }
    await this.write(() => this.es.delete({ index: this.names.sources, id, refresh: 'wait_for' }), [404]);
  }

  async createRun(run: SyncRun): Promise<SyncRun> {
    await this.write(() =>
      this.es.index({ index: this.names.syncRuns, id: run.id, document: run, refresh: 'wait_for' }),
    );
    return run;
  }

  async getRun(id: string): Promise<SyncRun | undefined> {
    return this.getById<SyncRun>(this.names.syncRuns, id);
  }

  async listRuns(sourceId: string): Promise<SyncRun[]> {
    return this.list<SyncRun>(this.names.syncRuns, { term: { sourceId } }, [{ startedAt: 'desc' }]);
  }

  async updateRun(
    id: string,
    changes: Partial<Omit<SyncRun, 'id' | 'sourceId' | 'projectId'>>,
  ): Promise<void> {
    await this.write(
      () =>
        this.es.update({
          index: this.names.syncRuns,
          id,
          doc: changes,
          refresh: 'wait_for',
          retry_on_conflict: 3,
        }),
      [404],
    );
  }

  // --- helpers --------------------------------------------------------------------------------

  private async getById<T>(index: string, id: string): Promise<T | undefined> {
    // A malformed id names nothing; Elasticsearch would answer with an error instead.
    if (!isTroveId(id)) return undefined;
    try {
      const response = await this.es.get<T>({ index, id }, { ignore: [404] });
      return response.found ? response._source : undefined;
    } catch (error) {
      throw elasticsearchError(error, `reading ${index}/${id}`);
    }
  }

  private async list<T>(index: string, query: object, sort: object[]): Promise<T[]> {
    try {
      const response = await this.es.search<T>({ index, query, sort: sort as never, size: 10_000 });
      return response.hits.hits.map((hit) => hit._source!);
    } catch (error) {
      throw elasticsearchError(error, `listing ${index}`);
    }
  }

  /**
   * Delete-by-query by hand (the integ-test distribution of Elasticsearch has no
   * _delete_by_query): refresh, page through the matching ids and bulk-delete them until none
   * are left, then refresh so lists no longer show them.
   */
  private async deleteWhere(index: string, query: object): Promise<void> {
    await deleteMatching(this.es, index, query);
  }

  private async write(action: () => Promise<unknown>, ignoreStatus: number[] = []): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (error instanceof errors.ResponseError && ignoreStatus.includes(error.statusCode ?? 0)) return;
      throw elasticsearchError(error, 'writing to the catalog');
    }
  }
}

function nameClaimId(name: string): string {
  return createHash('sha256').update(projectNameKey(name)).digest('hex');
}

function projectDeleting(id: string): TroveError {
  return new TroveError(
    TroveErrorCode.ProjectDeleting,
    `project ${id} is being deleted; nothing can be added to or changed in it`,
    { permanent: true },
  );
}

/** The natural key a document must hold alone: its source item, or its file name in the project. */
function claimKey(
  document: Pick<TroveDocument, 'projectId' | 'fileName' | 'sourceId' | 'externalId'>,
): string {
  return document.sourceId
    ? `source\u0000${document.sourceId}\u0000${document.externalId ?? ''}`
    : `upload\u0000${document.projectId}\u0000${document.fileName}`;
}

function claimId(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
