/**
 * The retrieval gate's measurement, shared by the gate (test/integration/search/retrieval-regression.test.ts)
 * and `npm run gate:rebaseline`: each slice of retrieval-slices.json indexed in-process (real
 * parser, chunker, embedder and ChunkIndex), then ranked by search built exactly as the api builds
 * it from the default settings — the settings' search block and their reranker, nothing overridden —
 * and by the same search with the learned reranker turned on, as the option people may choose.
 */
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { rerankSchema, searchSchema } from '@trove/config';
import { type EmbeddingProvider, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  type EvalQuery,
  evaluateRetrieval,
  type GateFigures,
  type GateRule,
  loadBeirDataset,
  type RetrievalSlice,
} from '@trove/evaluation';
import { RAG_SCHEMA_DEFAULTS, ragSearchOptions } from '@trove/rag-config';
import { ChunkIndex, HybridSearch, type HybridSearchOptions, type SearchCallOptions } from '@trove/search';
import { sharedDatasets } from '@trove/testing';
import { CachedPassageEmbedder, testCacheDir } from '@trove/tools-support';
import { indexBeirDocuments } from './retrieval-index';
import { QUERY_EMBEDDER_URL, workerConfig } from './services';

/** The slices' committed passage vectors (sliceSeedFile). */
export const SEED_DIR = join(__dirname, '..', 'integration', 'search', 'retrieval-seeds');

/**
 * What the gate measures per slice: each leg and HYBRID without reranking; DEFAULT — a request
 * that says nothing but its query, as a client's default search: HYBRID, reranked by whatever the
 * settings configure (nothing: fusion alone is the default); and LEARNED, HYBRID reranked by the
 * learned reranker, the option `TROVE_RERANK_PROVIDER=learned` turns on (measured on a search
 * built from the same settings with only that changed).
 */
export const GATE_CONFIGURATIONS: {
  name: string;
  mode: SearchMode;
  options: SearchCallOptions;
  search: keyof GateSearches;
}[] = [
  { name: 'KEYWORD', mode: SearchMode.KEYWORD, options: { rerank: false }, search: 'shipped' },
  { name: 'VECTOR', mode: SearchMode.VECTOR, options: { rerank: false }, search: 'shipped' },
  { name: 'HYBRID', mode: SearchMode.HYBRID, options: { rerank: false }, search: 'shipped' },
  { name: 'DEFAULT', mode: SearchMode.HYBRID, options: {}, search: 'shipped' },
  { name: 'LEARNED', mode: SearchMode.HYBRID, options: { rerank: true }, search: 'learned' },
];

/** The orders the gate holds besides the floors, each by the margin the baseline stores. */
export const GATE_RULES: GateRule[] = [
  { configuration: 'HYBRID', over: ['KEYWORD', 'VECTOR'], what: 'HYBRID over its better leg' },
  {
    configuration: 'DEFAULT',
    over: ['HYBRID'],
    what: 'the default search (with its reranker, if the settings set one) over HYBRID without it',
  },
];

/** The searches the gate ranks with: as shipped, and as shipped with the learned reranker on. */
export interface GateSearches {
  shipped: HybridSearch;
  learned: HybridSearch;
}

/**
 * Search as the api builds it from the default settings (RagRuntime: `ragSearchOptions`); `wiring`
 * adds only what the api wires in besides the settings (a token counter).
 */
export function shippedSearch(
  es: Client,
  prefix: string,
  embedder: EmbeddingProvider,
  wiring: Pick<HybridSearchOptions, 'countTokens'> = {},
): HybridSearch {
  return new HybridSearch(es, prefix, embedder, {
    ...ragSearchOptions(searchSchema.parse({}), RAG_SCHEMA_DEFAULTS),
    ...wiring,
  });
}

/** The gate's searches over one index: the shipped one, and the same with the learned reranker on. */
export function gateSearches(es: Client, prefix: string, embedder: EmbeddingProvider): GateSearches {
  const learned = { ...RAG_SCHEMA_DEFAULTS, rerank: rerankSchema.parse({ provider: 'learned' }) };
  return {
    shipped: shippedSearch(es, prefix, embedder),
    learned: new HybridSearch(es, prefix, embedder, ragSearchOptions(searchSchema.parse({}), learned)),
  };
}

/** A slice's queries and documents, read from the shared data set; throws when some are missing. */
export function loadSlice(slice: RetrievalSlice): {
  queries: EvalQuery[];
  corpus: ReturnType<typeof loadBeirDataset>['corpus'];
} {
  const loaded = loadBeirDataset(join(sharedDatasets(), slice.dataset), slice.split);
  const wanted = new Set(slice.queries.map((q) => q.id));
  const queries = loaded.queries.filter((q) => wanted.has(q.id));
  const documents = new Set(slice.documents);
  const corpus = loaded.corpus.filter((d) => documents.has(d._id));
  if (queries.length !== wanted.size || corpus.length !== documents.size) {
    throw new Error(
      `${slice.name}: ${wanted.size - queries.length} queries and ${documents.size - corpus.length} documents ` +
        `are missing from ${slice.dataset} (${slice.split})`,
    );
  }
  return { queries, corpus };
}

/**
 * The embedder the gates search with, as the quick start's api has it: passages at the main
 * embedder, queries at the query embedder (the query lane), so a gate never waits behind another
 * process's passage batches.
 */
export function gateEmbedder(prefix: string): EmbeddingProvider {
  return createEmbeddingProvider({ ...workerConfig(prefix).embedding, queryBaseUrl: QUERY_EMBEDDER_URL });
}

/** Where a slice's passage vectors are cached between runs (see testCacheDir). */
export function sliceCacheFile(slice: RetrievalSlice, embedder: EmbeddingProvider): string {
  return testCacheDir('retrieval-gate', `${slice.name}-${embedder.modelId.replace(/[^\w.-]+/g, '_')}.json`);
}

/**
 * A slice's committed passage vectors (`npm run gate:seed` writes them), which fill a missing cache
 * file: a new machine then embeds only what its chunking adds (see CachedPassageEmbedder).
 */
export function sliceSeedFile(slice: RetrievalSlice, embedder: EmbeddingProvider): string {
  return join(SEED_DIR, `${slice.name}-${embedder.modelId.replace(/[^\w.-]+/g, '_')}.json.gz`);
}

/**
 * Indexes a slice's documents under `projectId`. With `cache`, passage vectors come from the
 * slice's cache file where it has them (from its seed when the file is missing; see
 * CachedPassageEmbedder) and the file is rewritten; without, every passage is embedded and the
 * file is left alone. `seedTo` also writes the vectors this run used as the slice's seed.
 */
export async function indexSlice(
  slice: RetrievalSlice,
  corpus: ReturnType<typeof loadSlice>['corpus'],
  target: { index: ChunkIndex; embedder: EmbeddingProvider; projectId: string },
  cache: boolean,
  seedTo?: string,
): Promise<{ cached: number; embedded: number; fromSeed: boolean }> {
  const file = sliceCacheFile(slice, target.embedder);
  const embedder = cache
    ? await CachedPassageEmbedder.open(target.embedder, file, sliceSeedFile(slice, target.embedder))
    : CachedPassageEmbedder.empty(target.embedder, file);
  await indexBeirDocuments(corpus, { ...target, embedder });
  if (cache) embedder.save();
  if (seedTo) embedder.writeSeed(seedTo);
  return { ...embedder.counts, fromSeed: embedder.fromSeed };
}

/** Every configuration's nDCG@10 and Recall@10 on an indexed slice, rounded as the baseline stores them. */
export async function measureSlice(
  searches: GateSearches,
  queries: EvalQuery[],
  projectId: string,
): Promise<Record<string, GateFigures>> {
  const scores: Record<string, GateFigures> = {};
  for (const { name, mode, options, search } of GATE_CONFIGURATIONS) {
    const { scores: s } = await evaluateRetrieval(searches[search], queries, {
      projectId,
      mode,
      options: () => ({ ...options }),
    });
    scores[name] = { ndcg10: Number(s.ndcg10.toFixed(3)), recall10: Number(s.recall10.toFixed(3)) };
  }
  return scores;
}
