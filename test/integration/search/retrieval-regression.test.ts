/**
 * Retrieval regression gate. Each slice of retrieval-slices.json (built by
 * tools/eval/build-retrieval-slices.ts: seeded train-split queries of a shared BEIR set, which
 * tools/eval/train-reranker.ts leaves out of the learned reranker's fit, with their judged
 * documents and the hard distractors the
 * full corpus ranks highest for them) goes through the real parser, chunker, embedder and
 * Elasticsearch index, and is ranked by search built as the api builds it from the default
 * settings (test/support/retrieval-gate.ts), and by the same with the learned reranker on (the
 * option), through evaluateRetrieval, the path `npm run eval` uses. Every configuration must stay
 * above its floor (the committed baseline minus a tolerance from the measured run-to-run spread,
 * retrieval-baseline.json), HYBRID above its better leg and the default search (with the
 * settings' reranker, none out of the box) above HYBRID, each by the baseline's stored margin. The
 * baseline changes only through `npm run gate:rebaseline`, which refuses to lower a figure without
 * `--reason`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { gateFailures, type GateBaseline, type RetrievalSlices } from '@trove/evaluation';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { dropTestData, ES_URL, uniqueName } from '../../support/services';
import {
  gateEmbedder,
  GATE_RULES,
  indexSlice,
  loadSlice,
  measureSlice,
  gateSearches,
  type GateSearches,
} from '../../support/retrieval-gate';

const BASELINE_FILE = join(__dirname, 'retrieval-baseline.json');
const SLICES_FILE = join(__dirname, 'retrieval-slices.json');

const { slices } = JSON.parse(readFileSync(SLICES_FILE, 'utf8')) as RetrievalSlices;
const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as GateBaseline;
const prefix = uniqueName('regress');
const embedder = gateEmbedder(prefix);
let es: Client;
let index: ChunkIndex;
let searches: GateSearches;

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  searches = gateSearches(es, prefix, embedder);
  await index.ensure();
}, 60_000);

afterAll(async () => {
  await es?.close();
  await dropTestData(prefix);
});

it('has a baseline for exactly the slices it measures', () => {
  expect(Object.keys(baseline.scores).sort()).toEqual(slices.map((s) => s.name).sort());
});

describe.each(slices)('retrieval on the $name slice', (slice) => {
  const { queries, corpus } = loadSlice(slice);
  const projectId = `regress-${slice.name}`;

  beforeAll(async () => {
    const vectors = await indexSlice(slice, corpus, { index, embedder, projectId }, true);
    console.log(
      `[retrieval-regression] ${slice.name}: ${corpus.length} documents indexed, ` +
        `${vectors.cached} passage vectors from the cache${vectors.fromSeed ? ' (filled from its committed seed)' : ''}, ` +
        `${vectors.embedded} embedded`,
    );
  }, 1_800_000);

  it('keeps every configuration above its floor, HYBRID above its better leg and the default search above HYBRID', async () => {
    expect(baseline.scores[slice.name], `no baseline for ${slice.name} in ${BASELINE_FILE}`).toBeDefined();
    const scores = await measureSlice(searches, queries, projectId);
    console.log(`[retrieval-regression] ${slice.name}: ${JSON.stringify(scores)}`);
    const own: GateBaseline = {
      ...baseline,
      scores: { [slice.name]: baseline.scores[slice.name] },
      margins: { [slice.name]: baseline.margins?.[slice.name] ?? {} },
    };
    expect(gateFailures(own, { [slice.name]: scores }, GATE_RULES)).toEqual([]);
  }, 600_000);
});
