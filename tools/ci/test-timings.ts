/**
 * Where `npm test`'s time goes: a table of its stages (from the stage log scripts/test.sh writes)
 * and of the slowest test files of each vitest project (from vitest's JSON reports). Printed at
 * the end of every run, so the CI log keeps it, and written beside the reports as timings.md. The
 * integration and e2e stacks' start and stop times (stacks.tsv) come last: no file's time shows them.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

/** The parts of vitest's JSON report this table reads. */
export interface TimedReport {
  testResults: { name: string; startTime: number; endTime: number; status: string }[];
}

export interface StageTiming {
  stage: string;
  seconds: number;
  ok: boolean;
  /** How busy the machine's CPU was during the stage, all cores and processes (percent). */
  cpuPercent?: number;
  /** The stage it ran beside, in the background: its time is inside that one's. */
  beside?: string;
}

export interface FileTiming {
  project: string;
  file: string;
  seconds: number;
}

/**
 * Stage lines as scripts/test.sh writes them:
 * `name<TAB>seconds<TAB>ok|failed<TAB>CPU busy percent<TAB>the stage it ran beside, or nothing`.
 */
export function parseStages(log: string): StageTiming[] {
  return log
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [stage, seconds, outcome, cpu, beside] = line.split('\t');
      return {
        stage,
        seconds: Number(seconds),
        ok: outcome === 'ok',
        ...(cpu ? { cpuPercent: Number(cpu) } : {}),
        ...(beside ? { beside } : {}),
      };
    });
}

/** Each test file's wall time in a project's report, slowest first. */
export function fileTimings(project: string, report: TimedReport, root: string): FileTiming[] {
  return report.testResults
    .map((file) => ({
      project,
      file: relative(root, file.name),
      seconds: Math.max(0, (file.endTime - file.startTime) / 1000),
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** One stack start or stop as test/support/stack.ts logs it: `file<TAB>start|stop<TAB>seconds`. */
export interface StackTiming {
  file: string;
  phase: 'start' | 'stop';
  seconds: number;
}

export function parseStackTimings(log: string): StackTiming[] {
  return log
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [file, phase, seconds] = line.split('\t');
      return { file, phase: phase === 'stop' ? 'stop' : 'start', seconds: Number(seconds) };
    });
}

const fmt = (seconds: number) => seconds.toFixed(1);

/**
 * What starting and stopping the api and worker costs (outside any test's own time, so the
 * per-file table does not show it): totals per phase, and the files that pay most.
 */
export function stackTable(stacks: StackTiming[], top = 10): string {
  if (!stacks.length) return '';
  const lines: string[] = [];
  for (const phase of ['start', 'stop'] as const) {
    const own = stacks.filter((s) => s.phase === phase);
    const total = own.reduce((sum, s) => sum + s.seconds, 0);
    lines.push(`stack ${phase}s: ${own.length}, ${fmt(total)} s (mean ${fmt(total / (own.length || 1))} s)`);
  }
  const perFile = new Map<string, { count: number; seconds: number }>();
  for (const s of stacks) {
    const entry = perFile.get(s.file) ?? { count: 0, seconds: 0 };
    entry.count += s.phase === 'start' ? 1 : 0;
    entry.seconds += s.seconds;
    perFile.set(s.file, entry);
  }
  lines.push('', '| file | stacks | start+stop seconds |', '| --- | ---: | ---: |');
  for (const [file, entry] of [...perFile].sort((a, b) => b[1].seconds - a[1].seconds).slice(0, top)) {
    lines.push(`| ${file} | ${entry.count} | ${fmt(entry.seconds)} |`);
  }
  return lines.join('\n');
}

/**
 * The Markdown table: every stage, then per project its total and its `top` slowest files. A stage
 * that ran beside another is listed, but not added to the total (its time is inside that one's).
 */
export function timingTable(stages: StageTiming[], files: FileTiming[], top = 15): string {
  const lines = ['| stage | seconds | CPU busy | outcome |', '| --- | ---: | ---: | --- |'];
  for (const s of stages) {
    const name = s.beside ? `${s.stage} (beside ${s.beside})` : s.stage;
    const cpu = s.cpuPercent === undefined ? '' : `${s.cpuPercent} %`;
    lines.push(`| ${name} | ${fmt(s.seconds)} | ${cpu} | ${s.ok ? 'ok' : 'FAILED'} |`);
  }
  const total = stages.filter((s) => !s.beside).reduce((sum, s) => sum + s.seconds, 0);
  lines.push(`| **all stages** | **${fmt(total)}** | | |`);
  const projects = [...new Set(files.map((f) => f.project))];
  for (const project of projects) {
    const own = files.filter((f) => f.project === project);
    const total = own.reduce((sum, f) => sum + f.seconds, 0);
    lines.push('', `${project}: ${own.length} files, ${fmt(total)} s summed over files`, '');
    lines.push('| file | seconds |', '| --- | ---: |');
    for (const f of own.slice(0, top)) lines.push(`| ${f.file} | ${fmt(f.seconds)} |`);
  }
  return lines.join('\n');
}

function main(resultsDir: string, root: string): void {
  const stageLog = join(resultsDir, 'stages.tsv');
  const stages = existsSync(stageLog) ? parseStages(readFileSync(stageLog, 'utf8')) : [];
  const files = readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) =>
      fileTimings(
        basename(f, '.json'),
        JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as TimedReport,
        root,
      ),
    );
  const stackLog = join(resultsDir, 'stacks.tsv');
  const stacks = existsSync(stackLog) ? parseStackTimings(readFileSync(stackLog, 'utf8')) : [];
  const table = [timingTable(stages, files), stackTable(stacks)].filter(Boolean).join('\n\n');
  writeFileSync(join(resultsDir, 'timings.md'), `${table}\n`);
  console.log(table);
}

if (require.main === module) main(process.argv[2], join(__dirname, '..', '..'));
