/**
 * `npm run benchmarks:check [-- --mark]`: every stale section of BENCHMARKS.md with its reasons and
 * the command that clears it (tools/support/benchmarks-stale.ts has the rules). Exits 1 when a
 * section's mark disagrees with its staleness (what the unit test fails on). `--mark` writes,
 * refreshes and removes the `> **Stale:**` marks so they agree; a section without a stamp, or
 * stamped by a command the registry does not know, is never excused and still exits 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  benchmarkSections,
  gitCommitsSince,
  markFinding,
  markStaleSections,
  rerunCommand,
  staleness,
  unmarkableProblem,
} from '@trove/tools-support';

const FILE = join(__dirname, '..', '..', 'BENCHMARKS.md');

function main(): number {
  const { values } = parseArgs({ options: { mark: { type: 'boolean', default: false } } });
  const before = readFileSync(FILE, 'utf8');
  const file = values.mark ? markStaleSections(before, gitCommitsSince) : before;
  if (file !== before) writeFileSync(FILE, file);
  const sections = benchmarkSections(file);
  let stale = 0;
  let wrong = 0;
  for (const section of sections) {
    const problems = staleness(section, gitCommitsSince);
    const finding = markFinding(section, gitCommitsSince);
    if (finding) wrong++;
    if (problems.length === 0 && !finding) continue;
    stale += problems.length > 0 ? 1 : 0;
    console.log(section.heading);
    if (!unmarkableProblem(section)) console.log(`  re-run: ${rerunCommand(section)}`);
    // The full lists are in the section and the registry; a line each is enough to act on.
    for (const problem of problems)
      console.log(`  - ${problem.length > 240 ? `${problem.slice(0, 237)}…` : problem}`);
    if (finding) console.log(`  ! ${finding}`);
  }
  console.log(
    `${stale} of ${sections.length} sections stale${values.mark ? (file !== before ? '; marks written to BENCHMARKS.md' : '; marks already right') : ''}; ${wrong} with a mark that disagrees${wrong && !values.mark ? ' (npm run benchmarks:check -- --mark)' : ''}.`,
  );
  return wrong > 0 ? 1 : 0;
}

process.exitCode = main();
