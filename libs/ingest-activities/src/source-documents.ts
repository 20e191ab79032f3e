import { ApplicationFailure, Context } from '@temporalio/activity';
import type {
  DocumentRecords,
  ProjectReads,
  SourceItem,
  SourceItemRecords,
  SourceRecords,
  SyncRunRecords,
  WriteChecks,
} from '@trove/catalog';
import type { BlobStore, Source, SourceConnector, SyncRun } from '@trove/domain';
import { blobKeys, DocumentStatus, TroveErrorCode } from '@trove/domain';
import type { ChunkRemoval } from '@trove/search';

/** The catalog's ports a source sync uses: plan, the run's bookkeeping, pushed events. */
export interface SyncCatalog {
  writeChecks: WriteChecks;
  projects: Pick<ProjectReads, 'getProject'>;
  sources: SourceRecords;
  runs: SyncRunRecords;
  documents: SourceItemRecords & Pick<DocumentRecords, 'getDocument' | 'getDocuments'>;
}

export interface SourceDocumentDependencies extends SyncCatalog {
  blobs: BlobStore;
  chunkIndex: ChunkRemoval;
}

/**
 * The diff of a plan, in a few statements whatever the size: items whose version differs from
 * their indexed document's (or that have none) are to ingest, in discovery order; the new ones
 * get their records in bulk (`INSERT … ON CONFLICT DO NOTHING`), so re-running a plan never
 * duplicates a document.
 */
export async function diffItems(
  documents: SourceItemRecords,
  source: Source,
  connector: SourceConnector,
  known: Map<string, SourceItem>,
  found: Map<string, string>,
  /** Every found item counts as changed (a REBUILD sync re-ingests them all). */
  everything = false,
): Promise<{ changed: string[]; unchanged: number }> {
  const pending: string[] = [];
  let unchanged = 0;
  for (const [externalId, version] of found) {
    if (!everything && isUnchanged(known.get(externalId), version)) unchanged++;
    else pending.push(externalId);
  }
  const created = await ensureDocuments(
    documents,
    source,
    connector,
    pending.filter((externalId) => !known.has(externalId)),
  );
  const changed = pending.map((externalId) => known.get(externalId)?.id ?? created.get(externalId)!);
  return { changed, unchanged };
}

/** Whether an item at `version` is indexed already: its document is READY at that version. */
export function isUnchanged(
  existing: Pick<SourceItem, 'status' | 'version'> | undefined,
  version: string,
): boolean {
  return existing?.status === DocumentStatus.READY && existing.version === version;
}

/** Document ids for items of a source: the existing records, or new PENDING ones. */
export function ensureDocuments(
  documents: SourceItemRecords,
  source: Source,
  connector: SourceConnector,
  externalIds: string[],
): Promise<Map<string, string>> {
  return documents.ensureSourceDocuments(
    source.id,
    externalIds.map((externalId) => ({ externalId, ...connector.placeholder(externalId) })),
  );
}

/** Removes documents with their chunks and stored files; returns how many. */
export async function removeDocuments(
  deps: SourceDocumentDependencies,
  documentIds: string[],
): Promise<number> {
  await deps.chunkIndex.deleteDocumentsChunks(documentIds);
  for (const [i, id] of documentIds.entries()) {
    await deps.documents.deleteDocument(id);
    await deps.blobs.deletePrefix(blobKeys.originals(id));
    await deps.blobs.deletePrefix(blobKeys.work(id));
    if (i % 200 === 0) Context.current().heartbeat({ removed: i });
  }
  return documentIds.length;
}

export async function requireRun(runs: SyncRunRecords, runId: string): Promise<SyncRun> {
  const run = await runs.getRun(runId);
  if (!run) {
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: TroveErrorCode.SyncRunNotFound,
      message: `sync run ${runId} does not exist`,
    });
  }
  return run;
}
