/**
 * Which BENCHMARKS.md sections no longer describe the code (their stamp is `-dirty`, a later commit
 * changed what they measure, the default settings they ran with changed, or they ran at other
 * sizes without saying so), and the visible mark a stale section carries until its command runs
 * again: `> **Stale:** <reasons> — re-run \`<command>\`.` right under its heading.
 * tools/support/benchmarks-stale.spec.ts fails on a stale section without its mark, a mark on a
 * current section and a mark whose reasons are out of date; `npm run benchmarks:check -- --mark`
 * writes the marks, and a section rewritten by its command has none.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  benchmarkCommand,
  type BenchmarkCommand,
  changedSettings,
  changedSizes,
  formatMeasures,
  formatSettings,
  parseMeasures,
  parseSettings,
} from './benchmark-commands';

const ROOT = join(__dirname, '..', '..');
const STAMP = /^Written by `(.+)` at commit ([0-9a-f]{7,40})(-dirty)? on (\d{4}-\d{2}-\d{2}) \((.+)\)\.$/m;
/** How a mark line starts; the reasons and the command to re-run follow. */
export const STALE_MARK = '> **Stale:** ';

/** One `## ` section of BENCHMARKS.md: its heading line and its whole text (the heading first). */
export interface StampedSection {
  heading: string;
  text: string;
}

/** Why a section is stale: `reason` is the short form its mark carries, `detail` what the check prints. */
export interface StaleProblem {
  reason: string;
  detail: string;
}

/**
 * The commits after `commit` that changed `paths` (one line each), or a line saying the commit is
 * not in the history.
 */
export type CommitsSince = (commit: string, paths: string[]) => string[];

/** BENCHMARKS.md cut at its `## ` headings (the file's header left out). */
export function benchmarkSections(file: string): StampedSection[] {
  return file
    .split(/\n(?=## )/)
    .slice(1)
    .map((text) => ({ heading: text.slice(0, text.indexOf('\n')), text }));
}

/** What a section's stamp says: the command line and the registered command it runs, if any. */
export function sectionStamp(
  section: StampedSection,
): { commandLine: string; commit: string; dirty: boolean; command?: BenchmarkCommand } | undefined {
  const stamp = STAMP.exec(section.text);
  if (!stamp) return undefined;
  const [, commandLine, commit, dirty] = stamp;
  return { commandLine, commit, dirty: Boolean(dirty), command: benchmarkCommand(commandLine) };
}

/**
 * What no re-run can fix (a section without a stamp, or stamped by a command the registry does not
 * know): no mark excuses it. Undefined for a section the staleness rules can judge.
 */
export function unmarkableProblem(section: StampedSection): string | undefined {
  const stamp = sectionStamp(section);
  if (!stamp) return 'no "Written by `command` at commit … on …" stamp';
  if (!stamp.command) return `\`${stamp.commandLine}\` is not in tools/support/benchmark-commands.ts`;
  return undefined;
}

/** Why a section's figures may no longer be its command's: none when the section is current. */
export function staleProblems(section: StampedSection, commitsSince: CommitsSince): StaleProblem[] {
  const stamp = sectionStamp(section);
  const unmarkable = unmarkableProblem(section);
  if (!stamp?.command || unmarkable) return [{ reason: unmarkable!, detail: unmarkable! }];
  const { commandLine, commit, dirty, command } = stamp;
  const problems: StaleProblem[] = [];
  if (dirty)
    problems.push({
      reason: 'measured on a work tree with uncommitted changes',
      detail: `measured on a work tree with uncommitted changes (${commit}-dirty): run it again`,
    });
  const measures = parseMeasures(section.text);
  if (!measures)
    problems.push({
      reason: 'no "Measures:" line',
      detail: `no "Measures:" line under the stamp (${formatMeasures(command)})`,
    });
  else if (measures.join('\n') !== command.measures.join('\n'))
    problems.push({
      reason: 'its "Measures:" line is not its command\'s',
      detail: `its "Measures:" line is not ${command.command}'s (${formatMeasures(command)})`,
    });
  const settings = parseSettings(section.text);
  if (!settings)
    problems.push({
      reason: 'no "Settings:" line',
      detail: `no "Settings:" line under the stamp (${formatSettings(command)})`,
    });
  else {
    const changed = changedSettings(settings, command);
    if (changed.length > 0)
      problems.push({
        reason: `the default settings it ran with changed (${changed.map((c) => c.split(' ')[0]).join(', ')})`,
        detail: `the default settings it ran with changed (${changed.join(', ')}): run \`${commandLine}\` again`,
      });
  }
  const later = commitsSince(commit, command.measures);
  if (later.length > 0)
    problems.push({
      reason: 'later commits changed what it measures',
      detail: `${later.length} later commit(s) changed what it measures (${later.slice(0, 3).join('; ')}${later.length > 3 ? '; …' : ''}): run \`${commandLine}\` again`,
    });
  const sizes = changedSizes(commandLine, command);
  if (sizes.length > 0 && !section.heading.includes('(sizes changed'))
    problems.push({
      reason: `run with ${sizes.join(', ')} (not the defaults) without "(sizes changed" in its heading`,
      detail: `run with ${sizes.join(', ')} (not the defaults) without "(sizes changed" in its heading`,
    });
  return problems;
}

/** The staleness rules' findings, one line each (none when the section is current). */
export function staleness(section: StampedSection, commitsSince: CommitsSince): string[] {
  return staleProblems(section, commitsSince).map((p) => p.detail);
}

/**
 * The command that clears a stale section: its stamp's command line, without the sizes it changed
 * when the heading does not say "(sizes changed" (then the defaults are what it must show).
 */
export function rerunCommand(section: StampedSection): string {
  const stamp = sectionStamp(section)!;
  if (!stamp.command || section.heading.includes('(sizes changed')) return stamp.commandLine;
  const sizes = stamp.command.sizes;
  const words = stamp.commandLine.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const [name] = words[i].split('=');
    if (name in sizes && (!name.startsWith('--') || words[i].includes('='))) continue;
    if (name in sizes) {
      i++;
      continue;
    }
    kept.push(words[i]);
  }
  while (kept.at(-1) === '--') kept.pop();
  return kept.join(' ');
}

/** The mark a section should carry: undefined when it is current (or cannot be marked). */
export function expectedMark(section: StampedSection, commitsSince: CommitsSince): string | undefined {
  if (unmarkableProblem(section)) return undefined;
  const problems = staleProblems(section, commitsSince);
  if (problems.length === 0) return undefined;
  return `${STALE_MARK}${problems.map((p) => p.reason).join('; ')} — re-run \`${rerunCommand(section)}\`.`;
}

/** The mark lines a section carries (anywhere in it; one, right under the heading, is the only right place). */
export function foundMarks(section: StampedSection): string[] {
  return section.text.split('\n').filter((line) => line.startsWith(STALE_MARK));
}

/**
 * The section's text with `mark` right under its heading (a blank line on each side) and no other
 * mark; `undefined` removes the mark. Every other byte is kept.
 */
export function withMark(text: string, mark: string | undefined): string {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    if (lines[i].startsWith(STALE_MARK)) lines.splice(i, lines[i + 1] === '' ? 2 : 1);
  }
  if (mark) lines.splice(1, 0, ...(lines[1] === '' ? ['', mark] : ['', mark, '']));
  return lines.join('\n');
}

/**
 * What is wrong with a section's mark, as the unit test reports it: a stale section without one,
 * a current section with one, or one whose reasons or place are out of date. Undefined when the
 * section is current and unmarked, or stale and marked as it should be.
 */
export function markFinding(section: StampedSection, commitsSince: CommitsSince): string | undefined {
  const unmarkable = unmarkableProblem(section);
  if (unmarkable) return unmarkable;
  const expected = expectedMark(section, commitsSince);
  const found = foundMarks(section);
  const fix = 'npm run benchmarks:check -- --mark';
  if (expected && found.length === 0)
    return `stale and not marked (${staleProblems(section, commitsSince)
      .map((p) => p.reason)
      .join('; ')}): re-run \`${rerunCommand(section)}\`, or mark it with \`${fix}\``;
  if (!expected && found.length > 0)
    return `marked stale but current: remove its mark with \`${fix}\` (found: ${found.join(' | ')})`;
  if (withMark(section.text, expected) !== section.text)
    return `its mark is out of date or out of place: refresh it with \`${fix}\` (expected right under the heading: ${expected ?? 'none'}; found: ${found.join(' | ')})`;
  return undefined;
}

/** `file` with every section's mark written, refreshed or removed as its staleness says. */
export function markStaleSections(file: string, commitsSince: CommitsSince): string {
  const parts = file.split(/\n(?=## )/);
  return [
    parts[0],
    ...parts.slice(1).map((text) => {
      const section = { heading: text.slice(0, text.indexOf('\n')), text };
      return unmarkableProblem(section) ? text : withMark(text, expectedMark(section, commitsSince));
    }),
  ].join('\n');
}

/** The commits reachable from HEAD and not from `commit` that touched `paths` (unit specs aside). */
export function gitCommitsSince(commit: string, paths: string[]): string[] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    return [`the stamp's commit ${commit} is not in this clone's history`];
  }
  const log = git('log', '--format=%h %s', `${commit}..HEAD`, '--', ...paths, ':(exclude,glob)**/*.spec.ts');
  return log ? log.split('\n').map((line) => line.slice(0, 90)) : [];
}
