/**
 * The last stage of `npm test`: totals of vitest's JSON reports, and a check that every test ran.
 * A skipped or todo test fails the run unless test/allowed-skips.json names it with a reason, so a
 * `.skip`, a `.todo` or a skip decided at run time cannot slip in unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The parts of vitest's JSON report (`--reporter=json`) this check reads. */
export interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

/** An entry of test/allowed-skips.json: a test that may be skipped, and why. */
export interface AllowedSkip {
  /** The spec or test file, relative to the repository root. */
  file: string;
  /** The test's full name as vitest reports it (describe titles and the test title, space-separated). */
  test: string;
  reason: string;
}

export interface TestSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Skipped or todo tests the allow-list does not name, as `file > full name`. */
  unexpectedSkips: string[];
  /** Allow-list entries without a reason. */
  unexplained: string[];
}

const RAN = new Set(['passed', 'failed']);

export function summarize(reports: VitestJsonReport[], allowed: AllowedSkip[], root: string): TestSummary {
  const key = (file: string, test: string) => `${file} > ${test}`;
  const allowedKeys = new Set(allowed.map((a) => key(a.file, a.test)));
  const summary: TestSummary = { passed: 0, failed: 0, skipped: 0, unexpectedSkips: [], unexplained: [] };
  for (const report of reports) {
    summary.passed += report.numPassedTests;
    summary.failed += report.numFailedTests;
    summary.skipped += report.numPendingTests + report.numTodoTests;
    for (const file of report.testResults) {
      const path = relative(root, file.name);
      for (const test of file.assertionResults) {
        if (RAN.has(test.status) || allowedKeys.has(key(path, test.fullName))) continue;
        summary.unexpectedSkips.push(`${key(path, test.fullName)} (${test.status})`);
      }
    }
  }
  summary.unexplained = allowed.filter((a) => !a.reason?.trim()).map((a) => key(a.file, a.test));
  return summary;
}

function main(resultsDir: string, allowListPath: string, root: string): number {
  const reports = readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as VitestJsonReport);
  const allowed = JSON.parse(readFileSync(allowListPath, 'utf8')) as AllowedSkip[];
  const summary = summarize(reports, allowed, root);
  console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  for (const test of summary.unexpectedSkips) {
    console.error(`did not run, and ${relative(root, allowListPath)} does not allow it: ${test}`);
  }
  for (const test of summary.unexplained) {
    console.error(`${relative(root, allowListPath)} allows a skip without a reason: ${test}`);
  }
  return summary.unexpectedSkips.length || summary.unexplained.length ? 1 : 0;
}

if (require.main === module) {
  const root = join(__dirname, '..', '..');
  process.exitCode = main(process.argv[2], join(root, 'test', 'allowed-skips.json'), root);
}
