import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  benchmarkCommand,
  BENCHMARK_COMMANDS,
  changedSettings,
  changedSizes,
  formatMeasures,
  formatSettings,
  localServicePins,
  parseMeasures,
  parseSettings,
} from './benchmark-commands';

const ROOT = join(__dirname, '..', '..');
const STAMP = /^Written by `(.+)` at commit ([0-9a-f]{7,40})(-dirty)? on (\d{4}-\d{2}-\d{2}) \((.+)\)\.$/m;

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** BENCHMARKS.md cut at its `## ` headings (the file's header left out). */
function sections(file: string): { heading: string; text: string }[] {
  return file
    .split(/\n(?=## )/)
    .slice(1)
    .map((text) => ({ heading: text.slice(0, text.indexOf('\n')), text }));
}

/**
 * Why a section's figures may no longer be the command's: each problem as one line (none when the
 * section is current). `commitsSince(commit, paths)` lists the commits after `commit` that changed
 * `paths`.
 */
export function staleness(
  section: { heading: string; text: string },
  commitsSince: (commit: string, paths: string[]) => string[],
): string[] {
  const stamp = STAMP.exec(section.text);
  if (!stamp) return ['no "Written by `command` at commit … on …" stamp'];
  const [, commandLine, commit, dirty] = stamp;
  const problems: string[] = [];
  if (dirty)
    problems.push(`measured on a work tree with uncommitted changes (${commit}-dirty): run it again`);
  const command = benchmarkCommand(commandLine);
  if (!command) return [...problems, `\`${commandLine}\` is not in tools/support/benchmark-commands.ts`];
  const measures = parseMeasures(section.text);
  if (!measures) problems.push(`no "Measures:" line under the stamp (${formatMeasures(command)})`);
  else if (measures.join('\n') !== command.measures.join('\n'))
    problems.push(`its "Measures:" line is not ${command.command}'s (${formatMeasures(command)})`);
  const settings = parseSettings(section.text);
  if (!settings) problems.push(`no "Settings:" line under the stamp (${formatSettings(command)})`);
  else {
    const changed = changedSettings(settings, command);
    if (changed.length > 0)
      problems.push(
        `the default settings it ran with changed (${changed.join(', ')}): run \`${commandLine}\` again`,
      );
  }
  const later = commitsSince(commit, command.measures);
  if (later.length > 0) {
    problems.push(
      `${later.length} later commit(s) changed what it measures (${later.slice(0, 3).join('; ')}${later.length > 3 ? '; …' : ''}): run \`${commandLine}\` again`,
    );
  }
  const sizes = changedSizes(commandLine, command);
  if (sizes.length > 0 && !section.heading.includes('(sizes changed')) {
    problems.push(`run with ${sizes.join(', ')} (not the defaults) without "(sizes changed" in its heading`);
  }
  return problems;
}

/** The commits reachable from HEAD and not from `commit` that touched `paths` (unit specs aside). */
function gitCommitsSince(commit: string, paths: string[]): string[] {
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    return [`the stamp's commit ${commit} is not in this clone's history`];
  }
  const log = git('log', '--format=%h %s', `${commit}..HEAD`, '--', ...paths, ':(exclude,glob)**/*.spec.ts');
  return log ? log.split('\n').map((line) => line.slice(0, 90)) : [];
}

describe('BENCHMARKS.md sections are current', () => {
  const file = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');

  it.each(sections(file))('$heading', (section) => {
    expect(staleness(section, gitCommitsSince)).toEqual([]);
  });
});

describe('staleness rules', () => {
  const command = BENCHMARK_COMMANDS.find((c) => c.command === 'npm run bench:query-lane')!;
  const section = (
    heading: string,
    commandLine: string,
    commit = 'abc1234',
    measures = formatMeasures(command),
    settings = formatSettings(command),
  ) => ({
    heading,
    text: `${heading}\n\nWritten by \`${commandLine}\` at commit ${commit} on 2026-12-01 (2 cores).\n${measures}\n${settings}\n\nFigures.\n`,
  });
  const none = () => [];

  it('passes a section measured by its command at a clean commit, nothing changed since', () => {
    expect(staleness(section('## Lane', 'npm run bench:query-lane'), none)).toEqual([]);
  });

  it('fails a -dirty stamp, a later change to a measured file, and a missing or foreign Measures line', () => {
    const seen: string[][] = [];
    const since = (commit: string, paths: string[]) => {
      seen.push([commit, ...paths]);
      return ['f00ba47 search: fusion weight 0.4'];
    };
    expect(
      staleness(section('## Lane', 'npm run bench:query-lane', 'abc1234-dirty', 'Measures: `x`.'), since),
    ).toEqual([
      'measured on a work tree with uncommitted changes (abc1234-dirty): run it again',
      `its "Measures:" line is not npm run bench:query-lane's (${formatMeasures(command)})`,
      '1 later commit(s) changed what it measures (f00ba47 search: fusion weight 0.4): run `npm run bench:query-lane` again',
    ]);
    expect(seen).toEqual([['abc1234', ...command.measures]]);
    expect(staleness(section('## Lane', 'npm run bench:query-lane', 'abc1234', ''), none)).toEqual([
      `no "Measures:" line under the stamp (${formatMeasures(command)})`,
    ]);
  });

  it('fails a section whose default settings changed since, or that does not fingerprint them', () => {
    const current = formatSettings(command);
    expect(current).toMatch(/^Settings: `chunking` [0-9a-f]{8}, .*`search` [0-9a-f]{8}/);
    // The search block's defaults as they were before a change (another fingerprint).
    const before = current.replace(/`search` [0-9a-f]{8}/, '`search` 00000000');
    const now = parseSettings(current)!.get('search');
    expect(
      staleness(section('## Lane', 'npm run bench:query-lane', 'abc1234', undefined, before), none),
    ).toEqual([
      `the default settings it ran with changed (search 00000000 → ${now}): run \`npm run bench:query-lane\` again`,
    ]);
    expect(
      staleness(
        section(
          '## Lane',
          'npm run bench:query-lane',
          'abc1234',
          undefined,
          'Settings: `chunking` 00000000.',
        ),
        none,
      )[0],
    ).toMatch(
      /^the default settings it ran with changed \(chunking 00000000 → [0-9a-f]{8}, embedding not fingerprinted → /,
    );
    expect(staleness(section('## Lane', 'npm run bench:query-lane', 'abc1234', undefined, ''), none)).toEqual(
      [`no "Settings:" line under the stamp (${current})`],
    );
  });

  it("fingerprints infra/local's pins, not its paths or ports", () => {
    const script = [
      'ES_VERSION="${TROVE_ES_VERSION:-8.19.21}"',
      'ES_HOME="$TROVE_INSTALL_DIR/elasticsearch-$ES_VERSION"',
      'ES_PORT="${TROVE_ES_PORT:-9200}"',
      'EMBEDDER_THREADS="${TROVE_EMBEDDER_THREADS:-2}"',
    ].join('\n');
    expect(localServicePins(script)).toEqual({ ES_VERSION: '8.19.21', EMBEDDER_THREADS: '2' });
    expect(localServicePins()).toMatchObject({
      ES_VERSION: expect.any(String),
      EMBEDDER_THREADS: expect.any(String),
    });
  });

  it('fails sizes other than the defaults unless the heading says "(sizes changed"', () => {
    const reduced = 'BENCH_QUERY_LANE_QUERIES=10 BENCH_QUERY_LANE_DOCUMENTS=300 npm run bench:query-lane';
    expect(staleness(section('## Lane', reduced), none)).toEqual([
      'run with BENCH_QUERY_LANE_QUERIES 10 (not the defaults) without "(sizes changed" in its heading',
    ]);
    expect(staleness(section('## Lane (sizes changed: 10 queries)', reduced), none)).toEqual([]);
    const subset = 'npm run eval -- --dataset ru_rumeddanet --split test --docs 200 --queries 50';
    const evalCommand = benchmarkCommand(subset)!;
    expect(
      staleness(
        section('## Eval', subset, 'abc1234', formatMeasures(evalCommand), formatSettings(evalCommand)),
        none,
      ),
    ).toEqual([
      'run with --docs 200, --queries 50 (not the defaults) without "(sizes changed" in its heading',
    ]);
  });

  it('knows every command by its longest registered prefix', () => {
    expect(benchmarkCommand('npm run eval -- --answers --answers-baseline x.json')?.command).toBe(
      'npm run eval -- --answers',
    );
    expect(benchmarkCommand('npm run eval -- --dataset beir_scifact')?.command).toBe('npm run eval');
    expect(benchmarkCommand('npm run eval:keyword -- --dataset x')?.command).toBe('npm run eval:keyword');
    expect(benchmarkCommand('npm run bench:notion')?.command).toBe('npm run bench:notion');
    expect(benchmarkCommand('npm run bench:notion-requests')?.command).toBe('npm run bench:notion-requests');
    expect(benchmarkCommand('npm run bench:nothing')).toBeUndefined();
    expect(staleness(section('## X', 'npm run bench:nothing'), none)).toEqual([
      '`npm run bench:nothing` is not in tools/support/benchmark-commands.ts',
    ]);
  });
});
