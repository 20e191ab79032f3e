/**
 * `npm run bench`: every benchmark, one after another, each rewriting only its own sections of
 * BENCHMARKS.md; `npm run bench -- --only notion-requests,files` runs the ones named. The local
 * services are started first when a chosen benchmark needs them. Evaluations (`npm run eval`,
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
  { name: 'pipeline', script: 'scripts/bench.ts', needsServices: true },
  { name: 'notion', script: 'scripts/bench-notion.ts', needsServices: true },
  { name: 'notion-requests', script: 'scripts/bench-notion-requests.ts', needsServices: false },
  { name: 'files', script: 'scripts/bench-files.ts', needsServices: true },
  { name: 'catalog', script: 'scripts/bench-catalog.ts', needsServices: true },
  { name: 'query-lane', script: 'scripts/bench-query-lane.ts', needsServices: true },
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

function main(): void {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const chosen = chooseBenchmarks(values.only);
  const root = join(__dirname, '..');
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: root, stdio: 'inherit' });
  if (chosen.some((b) => b.needsServices)) run('bash', ['infra/local/up.sh']);
  for (const benchmark of chosen) {
    console.log(`[bench] ${benchmark.name}: ${benchmark.script}`);
    run(process.execPath, ['-r', '@swc-node/register', benchmark.script]);
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
