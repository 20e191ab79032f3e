import { createHash, randomUUID } from 'node:crypto';
import type { Client, estypes } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import type { Project, Source, SyncRun, TroveDocument } from '@trove/domain';
import { DocumentStatus, TroveError, TroveErrorCode } from '@trove/domain';
import { elasticsearchError, IndexNames } from '@trove/search';
import { WebhookEventLog } from './webhook-events';

const KEYWORD = { type: 'keyword' as const };

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
          createdAt: { type: 'date' as const },
        },
      },
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
        properties: { id: KEYWORD, projectId: KEYWORD, createdAt: { type: 'date' as const } },
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
      { index: this.names.webhookEvents, properties: WebhookEventLog.properties },
    ];
    try {
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
    } catch (error) {
      throw elasticsearchError(error, 'creating the catalog indices');
    }
  }

  // --- projects -------------------------------------------------------------------------------

  async createProject(name: string): Promise<Project> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 200) {
      throw new TroveError(TroveErrorCode.BadRequest, 'a project name needs 1 to 200 characters');
    }
    const project: Project = { id: randomUUID(), name: trimmed, createdAt: new Date().toISOString() };
    await this.write(() =>
      this.es.index({ index: this.names.projects, id: project.id, document: project, refresh: 'wait_for' }),
    );
    return project;
  }

  async getProject(id: string): Promise<Project | undefined> {
    return this.getById<Project>(this.names.projects, id);
  }

  async requireProject(id: string): Promise<Project> {
    const project = await this.getProject(id);
    if (!project) throw new TroveError(TroveErrorCode.ProjectNotFound, `project ${id} does not exist`);
    return project;
  }

  async listProjects(): Promise<Project[]> {
    return this.list<Project>(this.names.projects, { match_all: {} }, [{ createdAt: 'asc' }]);
  }

  async deleteProject(id: string): Promise<void> {
    await this.write(() => this.es.delete({ index: this.names.projects, id, refresh: 'wait_for' }), [404]);
  }

  // --- documents ------------------------------------------------------------------------------

  /** A document's id follows from its project and file name, so one name maps to one document. */
  static documentId(projectId: string, fileName: string): string {
    return createHash('sha256').update(`${projectId}\u0000${fileName}`).digest('hex').slice(0, 32);
  }

  /** Creates the document record; a second document with the same name in the project is a conflict. */
  async createDocument(
    input: Pick<
      TroveDocument,
      'projectId' | 'fileName' | 'mediaType' | 'sizeBytes' | 'contentHash' | 'blobKey'
    >,
  ): Promise<TroveDocument> {
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id: Catalog.documentId(input.projectId, input.fileName),
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.es.create({ index: this.names.documents, id: document.id, document, refresh: 'wait_for' });
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 409) {
        throw new TroveError(
          TroveErrorCode.DocumentNameConflict,
          `a document named "${input.fileName}" already exists in this project; delete it or reindex it instead`,
        );
      }
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

  async deleteDocument(id: string): Promise<void> {
    await this.write(() => this.es.delete({ index: this.names.documents, id, refresh: 'wait_for' }), [404]);
  }

  /** The documents a source produced (id, external id, edit time, status), for a sync to diff against. */
  async listSourceDocuments(sourceId: string): Promise<TroveDocument[]> {
    return this.list<TroveDocument>(this.names.documents, { term: { sourceId } }, [{ createdAt: 'asc' }]);
  }

  /** Creates the record of a source item's document, or returns the existing one. */
  async ensureSourceDocument(
    input: Pick<TroveDocument, 'projectId' | 'sourceId' | 'externalId' | 'fileName' | 'mediaType'>,
  ): Promise<{ document: TroveDocument; created: boolean }> {
    const id = Catalog.documentId(input.projectId, `source:${input.sourceId}:${input.externalId}`);
    const existing = await this.getDocument(id);
    if (existing) return { document: existing, created: false };
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id,
      sizeBytes: 0,
      contentHash: '',
      blobKey: '',
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.es.create({ index: this.names.documents, id, document, refresh: 'wait_for' });
      return { document, created: true };
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 409) {
        return { document: (await this.getDocument(id))!, created: false };
      }
      throw elasticsearchError(error, 'creating a source document');
    }
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

  async deleteSource(id: string): Promise<void> {
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

  private async write(action: () => Promise<unknown>, ignoreStatus: number[] = []): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (error instanceof errors.ResponseError && ignoreStatus.includes(error.statusCode ?? 0)) return;
      throw elasticsearchError(error, 'writing to the catalog');
    }
  }
}
