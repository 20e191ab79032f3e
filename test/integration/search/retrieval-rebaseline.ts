/**
 * `npm run gate:rebaseline -- [--runs 3] [--cold-runs 1] [--reason "why figures may drop"]`: measures
 * the retrieval gate's slices several times, each run on a fresh index (as the gate does, through
 * test/support/retrieval-gate.ts), then rewrites retrieval-baseline.json with the mean figures, a
 * tolerance per configuration from the runs' spread and the rules' margins. The first `--cold-runs`
 * runs embed every passage (the spread then covers the embedder too); the others read the vectors
 * cached by the first. It refuses to lower any figure unless `--reason` says why; the reason goes
 * into the file's history. The runs' figures are saved under .trove/retrieval-gate/, and
 * `--measurements <that file>` rewrites the baseline from them without measuring again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  configurationSpread,
  type GateBaseline,
  type GateScores,
  measuredSpread,
  rebaseline,
  type RetrievalSlices,
} from '@trove/evaluation';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { dropTestData, ES_URL, uniqueName } from '../../support/services';
import {
  gateEmbedder,
  GATE_RULES,
  indexSlice,
  loadSlice,
  measureSlice,
  gateSearches,
} from '../../support/retrieval-gate';

const BASELINE_FILE = join(__dirname, 'retrieval-baseline.json');
const SLICES_FILE = join(__dirname, 'retrieval-slices.json');
const ROOT = join(__dirname, '..', '..', '..');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'cold-runs': { type: 'string', default: '1' },
    reason: { type: 'string' },
    /** A JSON array of earlier runs' figures (as this command saves them) to use instead of measuring. */
    measurements: { type: 'string' },
  },
});

const runs = Number(args.runs);
const coldRuns = Number(args['cold-runs']);
if (!Number.isInteger(runs) || runs < 3)
  throw new Error(`--runs must be an integer of at least 3, got ${args.runs}`);
if (!Number.isInteger(coldRuns) || coldRuns < 0 || coldRuns > runs)
  throw new Error(`--cold-runs must be an integer from 0 to --runs, got ${args['cold-runs']}`);

/** One measurement of every slice, on an index of its own that is dropped afterwards. */
async function measureOnce(cold: boolean): Promise<GateScores> {
  const { slices } = JSON.parse(readFileSync(SLICES_FILE, 'utf8')) as RetrievalSlices;
  const prefix = uniqueName('rebaseline');
  const embedder = gateEmbedder(prefix);
  const es = createElasticsearchClient(ES_URL);
  try {
    const index = new ChunkIndex(es, prefix, embedder.dimensions);
    await index.ensure();
    const searches = gateSearches(es, prefix, embedder);
    const measured: GateScores = {};
    for (const slice of slices) {
      const { queries, corpus } = loadSlice(slice);
      const projectId = `regress-${slice.name}`;
      const started = Date.now();
      const vectors = await indexSlice(slice, corpus, { index, embedder, projectId }, !cold);
      const indexed = Date.now();
      measured[slice.name] = await measureSlice(searches, queries, projectId);
      console.log(
        `[rebaseline] ${slice.name}: indexed in ${((indexed - started) / 1000).toFixed(0)} s ` +
          `(${vectors.embedded} passages embedded, ${vectors.cached} cached), measured in ` +
          `${((Date.now() - indexed) / 1000).toFixed(0)} s: ${JSON.stringify(measured[slice.name])}`,
      );
    }
    return measured;
  } finally {
    await es.close();
    await dropTestData(prefix);
  }
}

async function main() {
  const previous = existsSync(BASELINE_FILE)
    ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as GateBaseline)
    : undefined;
  const measured: GateScores[] = args.measurements
    ? (JSON.parse(readFileSync(args.measurements, 'utf8')) as GateScores[])
    : [];
  for (let i = 1; i <= (args.measurements ? 0 : runs); i++) {
    const cold = i <= coldRuns;
    console.log(`[rebaseline] run ${i}/${runs}${cold ? ' (every passage embedded)' : ''}`);
    measured.push(await measureOnce(cold));
  }
  // Kept, so a rejected rewrite (a figure lowered without a reason) can be retried without measuring again.
  const saved = join(ROOT, '.trove', 'retrieval-gate', `runs-${new Date().toISOString()}.json`);
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, `${JSON.stringify(measured, null, 2)}\n`);
  console.log(
    `[rebaseline] ${measured.length} runs saved to ${saved}; largest spread ${measuredSpread(measured).toFixed(3)}`,
  );
  // Each configuration's own spread, which its tolerance is taken from.
  for (const [slice, configurations] of Object.entries(measured[0] ?? {})) {
    const spreads = Object.keys(configurations).map(
      (name) => `${name} ${configurationSpread(measured, slice, name).toFixed(3)}`,
    );
    console.log(`[rebaseline] ${slice} spread: ${spreads.join(', ')}`);
  }
  const next = rebaseline(previous, measured, {
    date: new Date().toISOString(),
    reason: args.reason,
    minRuns: 3,
    rules: GATE_RULES,
  });
  writeFileSync(BASELINE_FILE, `${JSON.stringify(next, null, 2)}\n`);
  console.log(
    `[rebaseline] wrote ${BASELINE_FILE}: ${next.toleranceHow}; margins ${JSON.stringify(next.margins)}`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
