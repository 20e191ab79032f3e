import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { TroveDocument } from '@trove/domain';
import { DocumentStatus, isTroveId, notFoundError, TroveError, TroveErrorCode } from '@trove/domain';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import { decodeCursor, pageSize, toPage, type Page, type PageRequest } from './cursor';
import { lockActiveSource } from './source-lock';
import type { DocumentsTable } from './tables';
import { jsonb } from './postgres-text';
import type {
  DocumentChanges,
  DocumentClaim,
  DocumentCounts,
  DocumentFilter,
  DocumentLeases,
  DocumentOrigin,
  DocumentOriginReads,
  DocumentRecords,
  DocumentScope,
  NewSourceItem,
  NewUpload,
  ProjectDocuments,
  ProjectSources,
  SearchScopeReader,
  SourceItem,
  SourceItemRecords,
  UploadCursor,
  UploadQueue,
} from './catalog.ports';

/** Rows per statement for bulk inserts and keyset scans. */
const BATCH = 1_000;
const SCAN_BATCH = 5_000;

/** A fresh document id: random, so a link to a deleted document never reaches a newer one. */
export function newDocumentId(): string {
  return randomUUID();
}

/**
 * Documents. Uniqueness is the database's: one upload per file name in a project, one document
 * per source item. Every list is keyset-paged; nothing is capped.
 */
export class DocumentRepository
  implements
    DocumentRecords,
    DocumentOriginReads,
    DocumentLeases,
    UploadQueue,
    SourceItemRecords,
    ProjectDocuments,
    SearchScopeReader,
    DocumentCounts
{
  constructor(
    private readonly db: CatalogDb,
    /** A search's source filter is checked against the project's sources. */
    private readonly sources: Pick<ProjectSources, 'listSources'>,
  ) {}

  /** Creates an uploaded document; the same name twice in a project is DOCUMENT_NAME_CONFLICT. */
  async createDocument(input: NewUpload): Promise<TroveDocument> {
    const now = new Date().toISOString();
    const document: TroveDocument = {
      ...input,
      id: input.id ?? newDocumentId(),
      status: DocumentStatus.PENDING,
      chunkCount: 0,
      timings: {},
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.db.insertInto('documents').values(toRow(document)).execute();
    } catch (error) {
      if (pgCode(error) === PgCode.uniqueViolation) {
        throw new TroveError(
          TroveErrorCode.DocumentNameConflict,
          `a document named "${input.fileName}" already exists in this project; delete it or reindex it instead`,
        );
      }
      if (pgCode(error) === PgCode.foreignKeyViolation) {
        throw new TroveError(TroveErrorCode.ProjectNotFound, `project ${input.projectId} does not exist`, {
          permanent: true,
        });
      }
      return query('creating the document', () => Promise.reject(error));
    }
    return document;
  }

  /** Inserts a document as it was (the one-time import); existing ones are left alone. */
  async import(documents: TroveDocument[]): Promise<void> {
    for (let i = 0; i < documents.length; i += BATCH) {
      const rows = documents.slice(i, i + BATCH).map(toRow);
      await query('importing documents', () =>
        this.db
          .insertInto('documents')
          .values(rows)
          .onConflict((c) => c.doNothing())
          .execute(),
      );
    }
  }

  async getDocument(id: string): Promise<TroveDocument | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading a document', () =>
      this.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toDocument(row);
  }

  async requireDocument(id: string): Promise<TroveDocument> {
    const document = await this.getDocument(id);
    if (!document) throw notFoundError('document', id);
    return document;
  }

  /** The documents among `ids` that exist (in no particular order): one query. */
  async getDocuments(ids: string[]): Promise<TroveDocument[]> {
    const valid = ids.filter(isTroveId);
    if (valid.length === 0) return [];
    const rows = await query('reading documents', () =>
      this.db.selectFrom('documents').selectAll().where('id', 'in', valid).execute(),
    );
    return rows.map(toDocument);
  }

  /**
   * Where those of `ids` that belong to the project come from (file name, source): one query
   * over the primary keys, the source joined in. Ids of other projects are left out.
   */
  async documentOrigins(projectId: string, ids: string[]): Promise<DocumentOrigin[]> {
    const valid = [...new Set(ids.filter(isTroveId))];
    if (valid.length === 0) return [];
    const rows = await query('reading where documents come from', () =>
      this.db
        .selectFrom('documents')
        .leftJoin('sources', (join) =>
          join.onRef('sources.id', '=', 'documents.source_id').on('sources.project_id', '=', projectId),
        )
        .select([
          'documents.id as documentId',
          'documents.file_name as fileName',
          'documents.title as title',
          'sources.id as sourceId',
          'sources.name as sourceName',
          'sources.type as sourceType',
        ])
        .where('documents.project_id', '=', projectId)
        .where('documents.id', 'in', valid)
        .execute(),
    );
    return rows.map((row) => ({
      documentId: row.documentId,
      fileName: row.fileName,
      ...(row.title !== null && { title: row.title }),
      ...(row.sourceId !== null &&
        row.sourceName !== null &&
        row.sourceType !== null && {
          source: { id: row.sourceId, name: row.sourceName, type: row.sourceType },
        }),
    }));
  }

  /** A page of a project's documents, oldest first, with the total matching the filter. */
  async pageDocuments(
    projectId: string,
    filter: DocumentFilter = {},
    request: PageRequest = {},
  ): Promise<Page<TroveDocument>> {
    const size = pageSize(request.first);
    let base = this.db.selectFrom('documents').where('project_id', '=', projectId);
    if (filter.status) base = base.where('status', '=', filter.status);
    if (filter.sourceId) base = base.where('source_id', '=', filter.sourceId);
    let rows = base
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(size + 1);
    if (request.after) {
      const { at, id } = decodeCursor(request.after);
      rows = rows.where(sql<boolean>`(created_at, id) > (${at}::timestamptz, ${id})`);
    }
    const [items, count] = await query('listing documents', () =>
      Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]),
    );
    return toPage(items, count, size, (row) => row.created_at, toDocument);
  }

  /**
   * The next PENDING uploads of a project (documents of no source), oldest first, after
   * `after`: keyset-paged by (created_at, id) through the project/status index.
   */
  async pendingUploads(
    projectId: string,
    after: UploadCursor | undefined,
    limit: number,
  ): Promise<{ ids: string[]; after?: UploadCursor }> {
    let q = this.db
      .selectFrom('documents')
      .select(['id', 'created_at'])
      .where('project_id', '=', projectId)
      .where('status', '=', DocumentStatus.PENDING)
      .where('source_id', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit);
    if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.at}::timestamptz, ${after.id})`);
    const rows = await query('listing pending uploads', () => q.execute());
    const last = rows.at(-1);
    return {
      ids: rows.map((r) => r.id),
      ...(last ? { after: { at: new Date(last.created_at).toISOString(), id: last.id } } : {}),
    };
  }

  /** The ids of every document of a project or source (keyset scan, no cap). */
  async documentIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]> {
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      let q = this.db.selectFrom('documents').select('id').orderBy('id').limit(SCAN_BATCH);
      q =
        'projectId' in scope
          ? q.where('project_id', '=', scope.projectId)
          : q.where('source_id', '=', scope.sourceId);
      if (after !== undefined) q = q.where('id', '>', after);
      const rows = await query('listing document ids', () => q.execute());
      ids.push(...rows.map((r) => r.id));
      if (rows.length < SCAN_BATCH) return ids;
      after = rows.at(-1)!.id;
    }
  }

  /**
   * The ids of a project's documents matching every criterion of `scope`, at most `max + 1` of
   * them (so a caller can tell "over the limit" apart). Sources go through the source index, dates
   * through (project_id, updated_at). An unknown source, or one of another project, is
   * SOURCE_NOT_FOUND.
   */
  async searchScope(projectId: string, scope: DocumentScope, max: number): Promise<string[]> {
    if (scope.sourceIds?.length) {
      const own = new Set((await this.sources.listSources(projectId)).map((source) => source.id));
      const unknown = scope.sourceIds.find((id) => !own.has(id));
      if (unknown !== undefined) {
        throw new TroveError(
          TroveErrorCode.SourceNotFound,
          `source ${unknown} does not exist in project ${projectId}`,
        );
      }
    }
    if ([scope.sourceIds, scope.documentIds, scope.mediaTypes].some((list) => list?.length === 0)) return [];
    let q = this.db
      .selectFrom('documents')
      .select('id')
      .where('project_id', '=', projectId)
      .limit(max + 1);
    if (scope.sourceIds) q = q.where('source_id', 'in', scope.sourceIds);
    if (scope.documentIds) q = q.where('id', 'in', scope.documentIds);
    if (scope.mediaTypes) q = q.where('media_type', 'in', scope.mediaTypes);
    if (scope.updatedFrom) q = q.where('updated_at', '>=', new Date(scope.updatedFrom));
    if (scope.updatedTo) q = q.where('updated_at', '<', new Date(scope.updatedTo));
    const rows = await query('resolving search filters', () => q.execute());
    return rows.map((row) => row.id);
  }

  /** Every item a source produced, for a sync to diff against (keyset scan, no cap). */
  async sourceItems(sourceId: string): Promise<SourceItem[]> {
    const items: SourceItem[] = [];
    let after: string | undefined;
    for (;;) {
      let q = this.db
        .selectFrom('documents')
        .select(['id', 'external_id', 'status', 'version'])
        .where('source_id', '=', sourceId)
        .orderBy('external_id')
        .limit(SCAN_BATCH);
      if (after !== undefined) q = q.where('external_id', '>', after);
      const rows = await query('listing source items', () => q.execute());
      for (const row of rows) items.push(toSourceItem(row));
      if (rows.length < SCAN_BATCH) return items;
      after = rows.at(-1)!.external_id!;
    }
  }

  /** The source's documents for these external ids (those that exist). */
  async findSourceItems(sourceId: string, externalIds: string[]): Promise<SourceItem[]> {
    const items: SourceItem[] = [];
    for (let i = 0; i < externalIds.length; i += BATCH) {
      const rows = await query('reading source items', () =>
        this.db
          .selectFrom('documents')
          .select(['id', 'external_id', 'status', 'version'])
          .where('source_id', '=', sourceId)
          .where('external_id', 'in', externalIds.slice(i, i + BATCH))
          .execute(),
      );
      items.push(...rows.map(toSourceItem));
    }
    return items;
  }

  /**
   * Ensures a PENDING document exists for each item of an active source, in batches of one
   * transaction: the source is locked against its removal (`lockActiveSource`, which refuses a
   * source or project being deleted), then one `INSERT … ON CONFLICT DO NOTHING`, so re-running a
   * plan, or two at once, never duplicates. Returns the document id of every item, new or existing.
   */
  async ensureSourceDocuments(sourceId: string, items: NewSourceItem[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH);
      const inserted = await query('creating source documents', () =>
        this.db.transaction().execute(async (tx) => {
          const { projectId } = await lockActiveSource(tx, sourceId);
          const now = new Date().toISOString();
          const rows = batch.map((item) =>
            toRow({
              id: newDocumentId(),
              projectId,
              sourceId,
              externalId: item.externalId,
              fileName: item.fileName,
              mediaType: item.mediaType,
              sizeBytes: 0,
              contentHash: '',
              blobKey: '',
              status: DocumentStatus.PENDING,
              chunkCount: 0,
              timings: {},
              createdAt: now,
              updatedAt: now,
            }),
          );
          return tx
            .insertInto('documents')
            .values(rows)
            .onConflict((c) => c.columns(['source_id', 'external_id']).doNothing())
            .returning(['id', 'external_id'])
            .execute();
        }),
      );
      for (const row of inserted) ids.set(row.external_id!, row.id);
      const existing = batch.map((item) => item.externalId).filter((id) => !ids.has(id));
      if (existing.length > 0) {
        for (const item of await this.findSourceItems(sourceId, existing)) ids.set(item.externalId, item.id);
      }
    }
    return ids;
  }

  /** Partial update; `error: null` clears a previous failure. A missing document is ignored. */
  async updateDocument(id: string, changes: DocumentChanges): Promise<void> {
    if (!isTroveId(id)) return;
    const values = toChanges(changes);
    await query('updating a document', () =>
      this.db.updateTable('documents').set(values).where('id', '=', id).execute(),
    );
  }

  /**
   * Several partial updates (a batch of documents finishing together): one statement per set of
   * changed columns, its rows sent as one JSON parameter, so a batch costs a round trip or two,
   * not one per document. In one transaction.
   */
  async updateDocuments(updates: { id: string; changes: DocumentChanges }[]): Promise<void> {
    // Several updates of one document apply in order, as one.
    const merged = new Map<string, DocumentChanges>();
    for (const { id, changes } of updates)
      if (isTroveId(id)) merged.set(id, { ...merged.get(id), ...changes });
    const groups = new Map<string, Record<string, unknown>[]>();
    for (const [id, changes] of merged) {
      const row: Record<string, unknown> = { id };
      for (const [column, value] of Object.entries(toChanges(changes)))
        row[column] = JSON_COLUMNS.has(column) && typeof value === 'string' ? JSON.parse(value) : value;
      const key = Object.keys(row).sort().join(',');
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    if (groups.size === 0) return;
    await query('updating documents', () =>
      this.db.transaction().execute(async (tx) => {
        for (const rows of groups.values()) {
          const columns = Object.keys(rows[0]).filter((c) => c !== 'id');
          await sql`update documents set ${sql.join(columns.map((c) => sql`${sql.ref(c)} = ${sql.ref(`v.${c}`)}`))}
            from jsonb_to_recordset(${jsonb(rows)}::jsonb)
              as v(id text, ${sql.join(columns.map((c) => sql`${sql.ref(c)} ${sql.raw(COLUMN_TYPES[c])}`))})
            where documents.id = v.id`.execute(tx);
        }
      }),
    );
  }

  /**
   * Leases the documents among `ids` that are free (no holder, or a lease past its end) or already
   * `holder`'s to `holder` for `ttlMs`, in one statement, on the database's clock. Ingests that
   * claim before writing never write the same document at once.
   */
  async claimDocuments(ids: string[], holder: string, ttlMs: number): Promise<DocumentClaim> {
    const valid = [...new Set(ids.filter(isTroveId))];
    if (valid.length === 0) return { claimed: [], held: [] };
    const rows = await query('claiming documents for ingestion', () =>
      this.db
        .with('claimed', (db) =>
          db
            .updateTable('documents')
            .set({
              ingest_holder: holder,
              ingest_lease_until: sql<string>`now() + ${ttlMs}::double precision * interval '1 millisecond'`,
            })
            .where('id', '=', (eb) => eb.fn.any(eb.val(valid)))
            .where((eb) =>
              eb.or([
                eb('ingest_holder', 'is', null),
                eb('ingest_holder', '=', holder),
                eb('ingest_lease_until', '<', sql<Date>`now()`),
              ]),
            )
            .returning('id'),
        )
        // The outer read sees the rows as the statement began: the holders of those not claimed.
        .selectFrom('documents')
        .leftJoin('claimed', 'claimed.id', 'documents.id')
        .select([
          'documents.id',
          'documents.ingest_holder',
          'documents.ingest_lease_until',
          'claimed.id as claimed_id',
        ])
        .where('documents.id', '=', (eb) => eb.fn.any(eb.val(valid)))
        .execute(),
    );
    const claim: DocumentClaim = { claimed: [], held: [] };
    for (const row of rows) {
      if (row.claimed_id !== null) claim.claimed.push(row.id);
      else
        claim.held.push({
          id: row.id,
          holder: row.ingest_holder,
          until: row.ingest_lease_until?.toISOString() ?? null,
        });
    }
    return claim;
  }

  /** Ends `holder`'s lease on these documents (one statement); others' leases are left alone. */
  async releaseDocuments(ids: string[], holder: string): Promise<void> {
    const valid = [...new Set(ids.filter(isTroveId))];
    if (valid.length === 0) return;
    await query('releasing documents', () =>
      this.db
        .updateTable('documents')
        .set({ ingest_holder: null, ingest_lease_until: null })
        .where('id', '=', (eb) => eb.fn.any(eb.val(valid)))
        .where('ingest_holder', '=', holder)
        .execute(),
    );
  }

  async deleteDocument(id: string): Promise<void> {
    if (!isTroveId(id)) return;
    await query('deleting a document', () => this.db.deleteFrom('documents').where('id', '=', id).execute());
  }

  /** Counts by status for a project (one grouped query). */
  async countByStatus(projectId: string): Promise<Record<string, number>> {
    const rows = await query('counting documents', () =>
      this.db
        .selectFrom('documents')
        .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
        .where('project_id', '=', projectId)
        .groupBy('status')
        .execute(),
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  /** How many documents each of these sources has (one grouped query); a source without any is absent. */
  async countBySource(sourceIds: readonly string[]): Promise<Map<string, number>> {
    const ids = sourceIds.filter(isTroveId);
    if (ids.length === 0) return new Map();
    const rows = await query('counting documents by source', () =>
      this.db
        .selectFrom('documents')
        .select(['source_id', (eb) => eb.fn.countAll<string>().as('count')])
        .where('source_id', 'in', ids)
        .groupBy('source_id')
        .execute(),
    );
    return new Map(rows.map((row) => [row.source_id!, Number(row.count)]));
  }

  /** A project's document and chunk totals (one aggregate query). */
  async totals(projectId: string): Promise<{ documents: number; chunks: number }> {
    const row = await query('counting documents', () =>
      this.db
        .selectFrom('documents')
        .select([
          (eb) => eb.fn.countAll<string>().as('documents'),
          (eb) => eb.fn.coalesce(eb.fn.sum<string>('chunk_count'), eb.lit(0)).as('chunks'),
        ])
        .where('project_id', '=', projectId)
        .executeTakeFirst(),
    );
    return { documents: Number(row?.documents ?? 0), chunks: Number(row?.chunks ?? 0) };
  }

  /** The media types of a project's documents with how many documents have each, most first. */
  async mediaTypeCounts(projectId: string): Promise<{ mediaType: string; documents: number }[]> {
    const rows = await query('counting documents by media type', () =>
      this.db
        .selectFrom('documents')
        .select(['media_type', (eb) => eb.fn.countAll<string>().as('documents')])
        .where('project_id', '=', projectId)
        .groupBy('media_type')
        .orderBy('documents', 'desc')
        .orderBy('media_type')
        .execute(),
    );
    return rows.map((row) => ({ mediaType: row.media_type, documents: Number(row.documents) }));
  }
}

function toRow(document: TroveDocument): Insertable<DocumentsTable> {
  return {
    id: document.id,
    project_id: document.projectId,
    source_id: document.sourceId ?? null,
    external_id: document.sourceId ? (document.externalId ?? '') : null,
    file_name: document.fileName,
    media_type: document.mediaType,
    size_bytes: document.sizeBytes ?? 0,
    content_hash: document.contentHash ?? '',
    blob_key: document.blobKey ?? '',
    title: document.title ?? null,
    language: document.language ?? null,
    status: document.status,
    error_code: document.error?.code ?? null,
    error_message: document.error?.message ?? null,
    chunk_count: document.chunkCount ?? 0,
    timings: jsonb(document.timings ?? {}),
    url: document.url ?? null,
    breadcrumb: document.breadcrumb ? jsonb(document.breadcrumb) : null,
    version: document.version ?? null,
    page_count: document.pageCount ?? null,
    warnings: document.warnings ? jsonb(document.warnings) : null,
    progress: document.progress ? jsonb(document.progress) : null,
    created_at: document.createdAt,
    updated_at: document.updatedAt,
    indexed_at: document.indexedAt ?? null,
  };
}

/** Maps a partial domain change to columns; `undefined` leaves a column alone. */
/** Types of the columns `toChanges` writes, for `updateMany`'s record set. */
const COLUMN_TYPES: Record<string, string> = {
  file_name: 'text',
  media_type: 'text',
  size_bytes: 'bigint',
  content_hash: 'text',
  blob_key: 'text',
  title: 'text',
  language: 'text',
  status: 'text',
  error_code: 'text',
  error_message: 'text',
  chunk_count: 'integer',
  timings: 'jsonb',
  url: 'text',
  breadcrumb: 'jsonb',
  version: 'text',
  page_count: 'integer',
  warnings: 'jsonb',
  progress: 'jsonb',
  indexed_at: 'timestamptz',
  updated_at: 'timestamptz',
};
const JSON_COLUMNS = new Set(Object.keys(COLUMN_TYPES).filter((c) => COLUMN_TYPES[c] === 'jsonb'));

function toChanges(changes: DocumentChanges): Updateable<DocumentsTable> {
  const set: Updateable<DocumentsTable> = { updated_at: new Date().toISOString() };
  const c = changes;
  if (c.fileName !== undefined) set.file_name = c.fileName;
  if (c.mediaType !== undefined) set.media_type = c.mediaType;
  if (c.sizeBytes !== undefined) set.size_bytes = c.sizeBytes;
  if (c.contentHash !== undefined) set.content_hash = c.contentHash;
  if (c.blobKey !== undefined) set.blob_key = c.blobKey;
  if (c.title !== undefined) set.title = c.title;
  if (c.language !== undefined) set.language = c.language;
  if (c.status !== undefined) set.status = c.status;
  if (c.error !== undefined) {
    set.error_code = c.error?.code ?? null;
    set.error_message = c.error?.message ?? null;
  }
  if (c.chunkCount !== undefined) set.chunk_count = c.chunkCount;
  if (c.timings !== undefined) set.timings = jsonb(c.timings);
  if (c.url !== undefined) set.url = c.url;
  if (c.breadcrumb !== undefined) set.breadcrumb = jsonb(c.breadcrumb);
  if (c.version !== undefined) set.version = c.version;
  if (c.pageCount !== undefined) set.page_count = c.pageCount;
  if (c.warnings !== undefined) set.warnings = jsonb(c.warnings);
  if (c.progress !== undefined) set.progress = c.progress === null ? null : jsonb(c.progress);
  if (c.indexedAt !== undefined) set.indexed_at = c.indexedAt;
  return set;
}

function toDocument(row: Selectable<DocumentsTable>): TroveDocument {
  const document: TroveDocument = {
    id: row.id,
    projectId: row.project_id,
    fileName: row.file_name,
    mediaType: row.media_type,
    sizeBytes: Number(row.size_bytes),
    contentHash: row.content_hash,
    blobKey: row.blob_key,
    status: row.status as DocumentStatus,
    chunkCount: row.chunk_count,
    timings: row.timings ?? {},
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.title !== null) document.title = row.title;
  if (row.language !== null) document.language = row.language;
  if (row.error_code !== null) document.error = { code: row.error_code, message: row.error_message ?? '' };
  if (row.indexed_at !== null) document.indexedAt = row.indexed_at.toISOString();
  if (row.source_id !== null) document.sourceId = row.source_id;
  if (row.external_id !== null) document.externalId = row.external_id;
  if (row.url !== null) document.url = row.url;
  if (row.breadcrumb !== null) document.breadcrumb = row.breadcrumb as string[];
  if (row.version !== null) document.version = row.version;
  if (row.page_count !== null) document.pageCount = row.page_count;
  if (row.warnings !== null) document.warnings = row.warnings as string[];
  if (row.progress) document.progress = row.progress;
  return document;
}

function toSourceItem(row: {
  id: string;
  external_id: string | null;
  status: string;
  version: string | null;
}): SourceItem {
  return {
    id: row.id,
    externalId: row.external_id!,
    status: row.status as DocumentStatus,
    version: row.version ?? undefined,
  };
}
