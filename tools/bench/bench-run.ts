/**
 * `npm run bench`: every benchmark, one after another, each rewriting only its own sections of
 * BENCHMARKS.md; `npm run bench -- --only notion-requests,files` runs the ones named. The local
 * services are started first when a chosen benchmark needs them. Arguments after `--` go to the one
 * benchmark chosen (`npm run bench:scale -- --parts small --small 300`). Evaluations (`npm run eval`,
 * `npm run eval:keyword`) take hours and a data set each: they are run on their own.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface Benchmark {
  /** `npm run bench:<name>` runs it alone. */
  name: string;
  script: string;
  needsServices: boolean;
}

export const BENCHMARKS: Benchmark[] = [
  { name: 'pipeline', script: 'tools/bench/bench.ts', needsServices: true },
  { name: 'notion', script: 'tools/bench/bench-notion.ts', needsServices: true },
  { name: 'notion-requests', script: 'tools/bench/bench-notion-requests.ts', needsServices: false },
  { name: 'files', script: 'tools/bench/bench-files.ts', needsServices: true },
  { name: 'catalog', script: 'tools/bench/bench-catalog.ts', needsServices: true },
  { name: 'scale', script: 'tools/bench/bench-scale.ts', needsServices: true },
  // Starts its own private Elasticsearch: a million chunks never load the shared one.
  { name: 'search-scale', script: 'tools/bench/bench-search-scale.ts', needsServices: false },
  { name: 'query-lane', script: 'tools/bench/bench-query-lane.ts', needsServices: true },
  // Its own stub embedders (BENCH_FAIR_EMBEDDER=local: infra/local's) and Temporal dev servers;
  // the stack part's api and workers use the local Elasticsearch and PostgreSQL.
  { name: 'fair-share', script: 'tools/bench/bench-fair-share.ts', needsServices: true },
  { name: 'large-documents', script: 'tools/bench/bench-large-documents.ts', needsServices: true },
  { name: 'ocr-layout', script: 'tools/bench/bench-ocr-layout.ts', needsServices: false },
  // An hour by default (--minutes): the worker's memory over imports, scans and Git syncs.
  { name: 'memory', script: 'tools/bench/bench-memory.ts', needsServices: true },
];

/** The benchmarks `--only` names (all of them without it), or an error naming the unknown ones. */
export function chooseBenchmarks(only: string | undefined): Benchmark[] {
  if (!only) return BENCHMARKS;
  const names = only
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length || !names.length) {
    throw new Error(
      `unknown benchmark ${unknown.join(', ') || '(none given)'}; choose from ${BENCHMARKS.map((b) => b.name).join(', ')}`,
    );
  }
  return BENCHMARKS.filter((b) => names.includes(b.name));
}

/** What `--help` prints: the options and every benchmark with its script. */
export function usage(): string {
  const width = Math.max(...BENCHMARKS.map((b) => b.name.length));
  return [
    'usage: npm run bench [-- --only <name,...>] [-- <arguments of the one benchmark chosen>]',
    '',
    'benchmarks (npm run bench:<name> runs one):',
    ...BENCHMARKS.map(
      (b) => `  ${b.name.padEnd(width)}  ${b.script}${b.needsServices ? ' (starts the local services)' : ''}`,
    ),
  ].join('\n');
}

function main(): void {
  const { values, positionals } = parseArgs({
    options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(usage());
    return;
  }
  const chosen = chooseBenchmarks(values.only);
  if (positionals.length && chosen.length !== 1)
    throw new Error(`arguments (${positionals.join(' ')}) need exactly one benchmark chosen with --only`);
  const root = join(__dirname, '..', '..');
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: root, stdio: 'inherit' });
  if (chosen.some((b) => b.needsServices)) run('bash', ['infra/local/up.sh']);
  // The stacks start the apps from their bundles, as the image does, when these are current.
  run(process.execPath, ['scripts/build-apps.js', '--if-stale']);
  for (const benchmark of chosen) {
    console.log(`[bench] ${benchmark.name}: ${benchmark.script}`);
    run(process.execPath, ['-r', '@swc-node/register', benchmark.script, ...positionals]);
  }
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(`[bench] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
