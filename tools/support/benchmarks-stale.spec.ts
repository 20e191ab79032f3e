import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  benchmarkCommand,
  BENCHMARK_COMMANDS,
  formatMeasures,
  formatSettings,
  localServicePins,
  parseSettings,
} from './benchmark-commands';
import {
  benchmarkSections,
  expectedMark,
  gitCommitsSince,
  markFinding,
  markStaleSections,
  rerunCommand,
  staleness,
  withMark,
} from './benchmarks-stale';

const ROOT = join(__dirname, '..', '..');

describe('BENCHMARKS.md: every stale section carries its mark, and no current one does', () => {
  const file = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');

  it.each(benchmarkSections(file))('$heading', (section) => {
    expect(markFinding(section, gitCommitsSince)).toBeUndefined();
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
      'KEYCLOAK_VERSION="${TROVE_KEYCLOAK_VERSION:-26.7.3}"',
    ].join('\n');
    expect(localServicePins(script)).toEqual({ ES_VERSION: '8.19.21', EMBEDDER_THREADS: '2' });
    expect(localServicePins(script, 'keycloak')).toEqual({ KEYCLOAK_VERSION: '26.7.3' });
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

describe('stale marks', () => {
  const command = BENCHMARK_COMMANDS.find((c) => c.command === 'npm run bench:query-lane')!;
  const stamped = (heading: string, commandLine: string, commit = 'abc1234') =>
    `${heading}\n\nWritten by \`${commandLine}\` at commit ${commit} on 2026-12-01 (2 cores).\n${formatMeasures(command)}\n${formatSettings(command)}\n\nFigures.\n`;
  const section = (text: string) => ({ heading: text.slice(0, text.indexOf('\n')), text });
  const none = () => [];
  const later = () => ['f00ba47 search: fusion weight 0.4', 'b00b1e5 chunking: windows'];
  const mark = '> **Stale:** later commits changed what it measures — re-run `npm run bench:query-lane`.';
  const file = (...texts: string[]) => `# Benchmarks\n\nHeader.\n\n${texts.join('\n')}`;

  it('words a mark from the short reasons, and names the command that clears it', () => {
    const lane = section(stamped('## Lane', 'npm run bench:query-lane'));
    expect(expectedMark(lane, none)).toBeUndefined();
    expect(expectedMark(lane, later)).toBe(mark);
    const reduced = section(
      stamped('## Lane', 'BENCH_QUERY_LANE_QUERIES=10 npm run bench:query-lane', 'abc1234-dirty'),
    );
    expect(expectedMark(reduced, none)).toBe(
      '> **Stale:** measured on a work tree with uncommitted changes; run with BENCH_QUERY_LANE_QUERIES 10 (not the defaults) without "(sizes changed" in its heading — re-run `npm run bench:query-lane`.',
    );
    expect(
      rerunCommand(section(stamped('## Eval', 'npm run eval -- --dataset x --docs 200 --queries=50'))),
    ).toBe('npm run eval -- --dataset x');
    expect(
      rerunCommand(section(stamped('## Eval (sizes changed: --docs 200)', 'npm run eval -- --docs 200'))),
    ).toBe('npm run eval -- --docs 200');
  });

  it('fails a stale section without a mark, and passes it marked right under its heading', () => {
    const text = stamped('## Lane', 'npm run bench:query-lane');
    expect(markFinding(section(text), later)).toBe(
      'stale and not marked (later commits changed what it measures): re-run `npm run bench:query-lane`, or mark it with `npm run benchmarks:check -- --mark`',
    );
    const marked = withMark(text, mark);
    expect(marked).toBe(`## Lane\n\n${mark}\n\n${text.slice('## Lane\n\n'.length)}`);
    expect(markFinding(section(marked), later)).toBeUndefined();
  });

  it('fails a mark on a current section: the mark must go', () => {
    const marked = withMark(stamped('## Lane', 'npm run bench:query-lane'), mark);
    expect(markFinding(section(marked), none)).toBe(
      `marked stale but current: remove its mark with \`npm run benchmarks:check -- --mark\` (found: ${mark})`,
    );
  });

  it('fails a mark whose reasons changed, or that is not right under the heading', () => {
    const text = stamped('## Lane', 'npm run bench:query-lane', 'abc1234-dirty');
    const outdated = withMark(text, mark);
    expect(markFinding(section(outdated), later)).toMatch(
      /^its mark is out of date or out of place: refresh it with `npm run benchmarks:check -- --mark` \(expected right under the heading: > \*\*Stale:\*\* measured on a work tree with uncommitted changes; later commits changed what it measures — re-run `npm run bench:query-lane`\.; found: > \*\*Stale:\*\* later commits/,
    );
    const clean = stamped('## Lane', 'npm run bench:query-lane');
    const misplaced = clean.replace('Figures.', `${mark}\n\nFigures.`);
    expect(markFinding(section(misplaced), later)).toMatch(/^its mark is out of date or out of place/);
  });

  it('never excuses a section without a stamp or with an unregistered command', () => {
    const unknown = withMark(stamped('## X', 'npm run bench:nothing'), mark);
    expect(markFinding(section(unknown), later)).toBe(
      '`npm run bench:nothing` is not in tools/support/benchmark-commands.ts',
    );
    expect(markFinding(section(`## Y\n\n${mark}\n\nNo stamp.\n`), later)).toBe(
      'no "Written by `command` at commit … on …" stamp',
    );
  });

  it('--mark writes, refreshes and removes marks and leaves every other byte', () => {
    const stale = stamped('## Stale', 'npm run bench:query-lane', 'aaaaaaa');
    const current = withMark(stamped('## Current', 'npm run bench:query-lane', 'bbbbbbb'), mark);
    const since = (commit: string) => (commit === 'aaaaaaa' ? later() : []);
    const before = file(stale, current);
    const after = markStaleSections(before, since);
    expect(after).toBe(
      file(withMark(stale, mark), stamped('## Current', 'npm run bench:query-lane', 'bbbbbbb')),
    );
    expect(markStaleSections(after, since)).toBe(after);
    for (const s of benchmarkSections(after)) expect(markFinding(s, since)).toBeUndefined();
    // Its command rewrites the section whole, so a fresh run carries no mark.
    expect(markStaleSections(after, none)).toBe(
      file(stale, stamped('## Current', 'npm run bench:query-lane', 'bbbbbbb')),
    );
  });
});
