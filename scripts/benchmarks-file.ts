import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Replaces the section of BENCHMARKS.md that starts with `heading` (up to the next `## `), or
 * appends it: each bench script owns one section and leaves the others as they are.
 */
export function writeBenchmarkSection(heading: string, section: string): void {
  const path = join(__dirname, '..', 'BENCHMARKS.md');
  const current = readFileSync(path, 'utf8');
  const start = current.indexOf(heading);
  const next = start >= 0 ? current.indexOf('\n## ', start + 1) : -1;
  const updated =
    start < 0
      ? `${current.trimEnd()}\n\n${section}`
      : current.slice(0, start) + section + (next >= 0 ? current.slice(next) : '');
  writeFileSync(path, updated);
}
