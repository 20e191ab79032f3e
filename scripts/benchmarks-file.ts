import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Replaces the section of BENCHMARKS.md that starts with `heading` (up to the next `## `), or
 * appends it: each bench script owns one section and leaves the others as they are. `heading` is
 * a prefix of the section's heading line, unless `wholeLine` (scripts whose headings extend one
 * another, e.g. "…: climate-fever-sentences" and "…: climate-fever-sentences (train split)").
 */
export function writeBenchmarkSection(
  heading: string,
  section: string,
  options: { wholeLine?: boolean } = {},
): void {
  const path = join(__dirname, '..', 'BENCHMARKS.md');
  const current = readFileSync(path, 'utf8');
  const target = options.wholeLine ? `${heading}\n` : heading;
  const line = current.startsWith(target) ? 0 : current.indexOf(`\n${target}`);
  const start = line > 0 ? line + 1 : line;
  const next = start >= 0 ? current.indexOf('\n## ', start + 1) : -1;
  const updated =
    start < 0
      ? `${current.trimEnd()}\n\n${section}`
      : current.slice(0, start) + section + (next >= 0 ? current.slice(next) : '');
  writeFileSync(path, updated);
}
