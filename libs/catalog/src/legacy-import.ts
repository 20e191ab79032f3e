import type { Client as ElasticsearchClient, estypes } from '@elastic/elasticsearch';
import type {
  FolderSourceConfig,
  NotionSourceConfig,
  Project,
  SourceBase,
  Source,
  SyncRun,
  TroveDocument,
} from '@trove/domain';
import { SourceType } from '@trove/domain';
import type { Catalog } from './catalog';

const PAGE = 2_000;

/** The Elasticsearch indices the catalog lived in before PostgreSQL, by suffix. */
const LEGACY_SUFFIXES = [
  'projects',
  'project-names',
  'sources',
  'documents',
  'sync-runs',
  'claims',
  'webhook-events',
] as const;

export interface LegacyImportReport {
  projects: number;
  sources: number;
  documents: number;
  runs: number;
}

/**
 * Moves a catalog an older Trove kept in Elasticsearch into PostgreSQL, once: every record is
 * inserted if absent (so an import cut short is simply repeated at the next start), then the old
 * indices are removed. Records whose owner is missing (a half-finished deletion) are dropped, as
 * the old version would have removed them. Webhook event ids are not carried over: they only
 * matter within the five-minute replay window.
 */
export async function importLegacyCatalog(
  catalog: Catalog,
  legacy: { es: ElasticsearchClient; indexPrefix: string },
): Promise<LegacyImportReport | undefined> {
  const { es, indexPrefix } = legacy;
  const index = (suffix: (typeof LEGACY_SUFFIXES)[number]) => `${indexPrefix}-${suffix}`;
  if (!(await es.indices.exists({ index: index('projects') }))) return undefined;

  const report: LegacyImportReport = { projects: 0, sources: 0, documents: 0, runs: 0 };
  for await (const project of scan<Project>(es, index('projects'))) {
    await catalog.projects.import(project);
    report.projects++;
  }
  // Owners as the database has them (an earlier, interrupted import may have brought some).
  const projectIds = new Set(
    (await catalog.db.selectFrom('projects').select('id').execute()).map((r) => r.id),
  );
  for await (const stored of scan<LegacySource>(es, index('sources'))) {
    const source = legacySource(stored);
    if (!projectIds.has(source.projectId)) continue;
    await catalog.sources.import(source);
    report.sources++;
  }
  const sourceIds = new Set((await catalog.db.selectFrom('sources').select('id').execute()).map((r) => r.id));
  let batch: TroveDocument[] = [];
  for await (const stored of scan<LegacyDocument>(es, index('documents'))) {
    if (!projectIds.has(stored.projectId)) continue;
    if (stored.sourceId && !sourceIds.has(stored.sourceId)) continue;
    const { externalEditedAt, externalVersion, ...document } = stored;
    const version = externalVersion ?? externalEditedAt;
    batch.push(version ? { ...document, version } : document);
    if (batch.length >= PAGE) {
      await catalog.documents.import(batch);
      report.documents += batch.length;
      batch = [];
    }
  }
  await catalog.documents.import(batch);
  report.documents += batch.length;
  for await (const run of scan<SyncRun>(es, index('sync-runs'))) {
    if (!sourceIds.has(run.sourceId)) continue;
    await catalog.runs.import({ ...run, skipped: run.skipped ?? [] });
    report.runs++;
  }

  await es.indices.delete({
    index: LEGACY_SUFFIXES.map(index).join(','),
    ignore_unavailable: true,
    allow_no_indices: true,
  });
  return report;
}

/** Every document of an index, in id order, by search_after (no 10,000 cap). */
async function* scan<T>(es: ElasticsearchClient, index: string): AsyncGenerator<T> {
  if (!(await es.indices.exists({ index }))) return;
  await es.indices.refresh({ index });
  let after: estypes.SortResults | undefined;
  for (;;) {
    const response = await es.search<T>({
      index,
      size: PAGE,
      // Every catalog index maps `id` as a keyword (sorting on _id is disabled in 8.x).
      sort: [{ id: 'asc' }] as never,
      query: { match_all: {} },
      ...(after ? { search_after: after } : {}),
    });
    const hits = response.hits.hits;
    for (const hit of hits) if (hit._source) yield hit._source;
    if (hits.length < PAGE) return;
    after = hits.at(-1)!.sort;
  }
}

/** Documents stored in Elasticsearch kept the item version in two fields. */
type LegacyDocument = TroveDocument & { externalEditedAt?: string; externalVersion?: string };

/**
 * Sources stored in Elasticsearch (NOTION and FOLDER only, then) had optional type configs
 * instead of a union, and Notion's token in fields of its own.
 */
type LegacySource = SourceBase & {
  type: SourceType;
  notion?: Omit<NotionSourceConfig, 'token'>;
  folder?: FolderSourceConfig;
  encryptedToken?: string;
  tokenHint?: string;
};

function legacySource(stored: LegacySource): Source {
  const { notion, folder, encryptedToken, tokenHint, ...common } = stored;
  if (stored.type === SourceType.FOLDER) return { ...common, type: SourceType.FOLDER, config: folder! };
  return {
    ...common,
    type: SourceType.NOTION,
    config: {
      ...(notion ?? { everything: true, rootPageIds: [], rootDatabaseIds: [] }),
      token: { sealed: encryptedToken ?? '', hint: tokenHint ?? '(unset)' },
    },
  };
}
