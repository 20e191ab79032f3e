/**
 * `npm run gate:rebaseline -- [--runs 3] [--reason "why figures may drop"]`: runs the retrieval
 * gate (retrieval-regression.test.ts) several times in measuring mode, then rewrites
 * retrieval-baseline.json with the mean figures and a tolerance taken from the runs' spread. It
 * refuses to lower any figure unless `--reason` says why; the reason goes into the file's history.
 * The runs' figures are saved under .trove/retrieval-gate/, and `--measurements <that file>`
 * rewrites the baseline from them without running the gate again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { type GateBaseline, type GateScores, measuredSpread, rebaseline } from '@trove/evaluation';

const BASELINE_FILE = join(__dirname, 'retrieval-baseline.json');
const GATE = 'test/integration/search/retrieval-regression.test.ts';
const ROOT = join(__dirname, '..', '..', '..');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    reason: { type: 'string' },
    /** A JSON array of earlier runs' figures (as this command saves them) to use instead of running the gate. */
    measurements: { type: 'string' },
  },
});

const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 3)
  throw new Error(`--runs must be an integer of at least 3, got ${args.runs}`);
/** The baseline on file; the older format (figures only, a fixed tolerance of 0.02) is read as such. */
function readBaseline(): GateBaseline | undefined {
  if (!existsSync(BASELINE_FILE)) return undefined;
  const raw = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as GateBaseline | GateScores;
  if ('scores' in raw && 'history' in raw) return raw as GateBaseline;
  const scores = Object.fromEntries(
    Object.entries(raw as GateScores).map(([slice, configurations]) => [
      slice,
      Object.fromEntries(
        Object.entries(configurations).map(([name, f]) => [name, { ...f, tolerance: 0.02 }]),
      ),
    ]),
  );
  return { toleranceHow: 'fixed 0.02', scores, history: [] };
}

const previous = readBaseline();

const dir = mkdtempSync(join(tmpdir(), 'trove-rebaseline-'));
try {
  const measured: GateScores[] = args.measurements
    ? (JSON.parse(readFileSync(args.measurements, 'utf8')) as GateScores[])
    : [];
  for (let i = 1; i <= (args.measurements ? 0 : runs); i++) {
    const out = join(dir, `run-${i}.json`);
    console.log(`[rebaseline] run ${i}/${runs}`);
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', GATE], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, TROVE_RETRIEVAL_GATE_OUT: out },
    });
    if (run.status !== 0 || !existsSync(out)) throw new Error(`gate run ${i} failed (exit ${run.status})`);
    measured.push(JSON.parse(readFileSync(out, 'utf8')) as GateScores);
  }
  // Kept, so a rejected rewrite (a figure lowered without a reason) can be retried without rerunning.
  const saved = join(ROOT, '.trove', 'retrieval-gate', `runs-${new Date().toISOString()}.json`);
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, `${JSON.stringify(measured, null, 2)}\n`);
  console.log(
    `[rebaseline] ${measured.length} runs saved to ${saved}; largest spread ${measuredSpread(measured).toFixed(3)}`,
  );
  const next = rebaseline(previous, measured, {
    date: new Date().toISOString(),
    reason: args.reason,
    minRuns: 3,
  });
  writeFileSync(BASELINE_FILE, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`[rebaseline] wrote ${BASELINE_FILE}: ${next.toleranceHow}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
