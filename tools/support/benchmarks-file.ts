import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchmarkCommand, changedSizes, formatMeasures, formatSettings } from './benchmark-commands';

const BENCHMARKS_FILE = join(__dirname, '..', '..', 'BENCHMARKS.md');

/** Who wrote a section of BENCHMARKS.md: the command, the commit it measured, the day and the machine. */
export interface SectionStamp {
  command: string;
  commit: string;
  date: string;
  machine: string;
  /** What the figures depend on (the `Measures:` line), from the command's entry in benchmark-commands.ts. */
  measures?: string;
  /** The default settings they were taken with (the `Settings:` line of fingerprints). */
  settings?: string;
}

/** One section a benchmark or eval command owns: its `## ` heading line (matched whole) and its text. */
export interface BenchmarkSection {
  heading: string;
  /** The text under the heading, without the stamp (the writer adds it). */
  body: string;
}

/** The lines under each heading that say who wrote the section, and what its figures depend on. */
export function formatStamp(stamp: SectionStamp): string {
  const written = `Written by \`${stamp.command}\` at commit ${stamp.commit} on ${stamp.date} (${stamp.machine}).`;
  return [written, stamp.measures, stamp.settings].filter(Boolean).join('\n');
}

/**
 * The stamp of a run now: HEAD (with `-dirty` when the work tree has changes besides BENCHMARKS.md), today, this machine,
 * and what the command measures. Throws for a command not in BENCHMARK_COMMANDS: its sections could
 * not be checked for staleness.
 */
export function currentStamp(command: string): SectionStamp {
  const registered = benchmarkCommand(command);
  if (!registered) {
    throw new Error(
      `\`${command}\` is not in tools/support/benchmark-commands.ts: add it with what it measures`,
    );
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: __dirname, encoding: 'utf8' }).trim();
  let commit = 'unknown';
  try {
    commit = git('rev-parse', '--short=7', 'HEAD');
    // BENCHMARKS.md itself aside: the sections an earlier command of the same session wrote.
    if (git('status', '--porcelain', '--untracked-files=no', '--', ':/', ':(exclude,top)BENCHMARKS.md'))
      commit += '-dirty';
  } catch {
    // Not a git checkout (an exported tarball): the stamp says so.
  }
  const cores = cpus();
  return {
    command,
    commit,
    measures: formatMeasures(registered),
    settings: formatSettings(registered),
    date: new Date().toISOString().slice(0, 10),
    machine: `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${arch()}`,
  };
}

/**
 * `file` with each of `sections` replaced (or appended, in order, when its heading is not there),
 * each under its heading and stamp. A section runs from its heading line to the next `## ` line;
 * headings are matched as whole lines, so "…: beir_scifact" never takes "…: beir_scifact (train
 * split)". Every other byte of the file is kept.
 */
export function replaceSections(file: string, sections: BenchmarkSection[], stamp: SectionStamp): string {
  let text = file;
  for (const { heading, body } of sections) {
    if (!/^## [^\n]+$/.test(heading))
      throw new Error(`a section heading is one "## " line: ${JSON.stringify(heading)}`);
    const rendered = `${heading}\n\n${formatStamp(stamp)}\n\n${body.trim()}\n`;
    const lines = text.split('\n');
    const start = lines.indexOf(heading);
    if (start < 0) {
      text = `${text.trimEnd()}\n\n${rendered}`;
      continue;
    }
    if (lines.indexOf(heading, start + 1) >= 0) throw new Error(`BENCHMARKS.md has "${heading}" twice`);
    const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
    const before = lines.slice(0, start).join('\n');
    const after = next < 0 ? '' : `\n${lines.slice(next).join('\n')}`;
    text = `${before}${start ? '\n' : ''}${rendered}${after}`;
  }
  return text;
}

/** A section's text split at its first line: the `## ` heading, then the body. */
export function parseSection(text: string): BenchmarkSection {
  const end = text.indexOf('\n');
  return end < 0 ? { heading: text, body: '' } : { heading: text.slice(0, end), body: text.slice(end + 1) };
}

/**
 * A section's heading as its command writes it: with "(sizes changed: …)" added when the command
 * line sizes the workload otherwise than its command's defaults (and the heading does not say so
 * already), so a smaller run never replaces, or passes for, the full one.
 */
export function sizedHeading(heading: string, command: string): string {
  const registered = benchmarkCommand(command);
  const changed = registered ? changedSizes(command, registered) : [];
  return changed.length && !heading.includes('(sizes changed')
    ? `${heading} (sizes changed: ${changed.join(', ')})`
    : heading;
}

/**
 * Rewrites only these sections of BENCHMARKS.md (each a text starting with its `## ` heading line),
 * stamped with `command`, this commit, today and this machine: each benchmark or eval command owns
 * its sections and leaves the others byte for byte.
 */
export function writeBenchmarkSections(command: string, ...sections: string[]): void {
  const current = readFileSync(BENCHMARKS_FILE, 'utf8');
  const stamp = currentStamp(command);
  const parsed = sections.map(parseSection).map((s) => ({ ...s, heading: sizedHeading(s.heading, command) }));
  writeFileSync(BENCHMARKS_FILE, replaceSections(current, parsed, stamp));
}
