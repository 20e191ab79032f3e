import type { ProjectDocuments } from '@trove/catalog';
import { type EmbeddingProvider, type TroveDocument } from '@trove/domain';
import { type FusionSettings } from '@trove/search';
import { localWorkerConfig } from '@trove/tools-support';

/** The prefix of every eval project's index, catalog schema and task queue: persistent, apart from the app's data. */
export const EVAL_NAME = 'trove-eval';
export const SUBSET_SEED = 42;

/** The eval project's name: the subset depends on the queries whose judged documents it must hold, so both name it. */
export function evalProjectName(dataset: string, split: string, queries: number, docLimit?: number): string {
  return docLimit
    ? `eval ${dataset} ${split} q${queries} d${docLimit} seed${SUBSET_SEED}`
    : `eval ${dataset}`;
}

/**
 * The worker configuration of one eval project: a catalog schema, index and task queue of its
 * own. BM25 statistics (document frequencies, average field lengths) are then those of that corpus
 * alone, as in the published BEIR figures, and two evals never take each other's ingest tasks or
 * index generations (both are per catalog).
 */
export function evalWorkerConfig(projectName: string, blobDir: string) {
  const slug = projectName
    .replace(/^eval /, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return localWorkerConfig(`${EVAL_NAME}-${slug}`, blobDir);
}

/** Every document of a project, by file name. */
export async function projectDocuments(
  documents: Pick<ProjectDocuments, 'pageDocuments'>,
  projectId: string,
): Promise<Map<string, TroveDocument>> {
  const byName = new Map<string, TroveDocument>();
  let after: string | undefined;
  for (;;) {
    const page = await documents.pageDocuments(projectId, {}, { first: 500, after });
    for (const doc of page.items) byName.set(doc.fileName, doc);
    if (!page.hasNextPage) return byName;
    after = page.endCursor;
  }
}

/** An embedder that answers the given queries from vectors computed once, up front. */
export async function memoizedQueries(
  embedder: EmbeddingProvider,
  texts: string[],
): Promise<EmbeddingProvider> {
  const vectors = new Map<string, number[]>();
  for (let i = 0; i < texts.length; i += 16) {
    const batch = texts.slice(i, i + 16);
    (await embedder.embed(batch, 'query')).forEach((v, j) => vectors.set(batch[j], v));
  }
  console.log(`[eval] embedded ${vectors.size} queries once; later searches skip query embedding`);
  return {
    dimensions: embedder.dimensions,
    modelId: embedder.modelId,
    ping: () => embedder.ping(),
    embed: (batch, purpose, options) =>
      purpose === 'query' && batch.every((t) => vectors.has(t))
        ? Promise.resolve(batch.map((t) => vectors.get(t)!))
        : embedder.embed(batch, purpose, options),
  };
}

/** `rrf`, `rrf:30`, `convex:0.7`, `convex:0.7:zscore` → a per-request fusion override. */
export function parseFusions(list: string | undefined): { name: string; fusion?: Partial<FusionSettings> }[] {
  if (!list) return [{ name: 'default' }];
  return list.split(',').map((raw) => {
    const [method, a, b] = raw.trim().split(':');
    if (method === 'rrf')
      return { name: raw.trim(), fusion: { method: 'rrf', ...(a ? { k: Number(a) } : {}) } };
    if (method === 'convex') {
      if (b && b !== 'minmax' && b !== 'zscore') throw new Error(`unknown normalisation in ${raw}`);
      return {
        name: raw.trim(),
        fusion: {
          method: 'convex',
          ...(a ? { vectorWeight: Number(a) } : {}),
          ...(b ? { normalization: b as FusionSettings['normalization'] } : {}),
        },
      };
    }
    throw new Error(`unknown fusion ${raw}; expected rrf[:k] or convex[:weight[:minmax|zscore]]`);
  });
}
