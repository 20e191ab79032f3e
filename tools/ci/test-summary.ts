/**
 * The last stage of `npm test`: totals of vitest's JSON reports, and a check that every test ran.
 * A skipped or todo test fails the run unless test/allowed-skips.json names it with a reason, so a
 * `.skip`, a `.todo` or a skip decided at run time cannot slip in unnoticed; so does a test file of
 * a level that ran that no report names (vitest stopped before it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The parts of vitest's JSON report (`--reporter=json`) this check reads. */
export interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    /** `failed` when the file itself failed (it did not load, a hook threw), with `message`. */
    status?: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** An entry of test/allowed-skips.json: a test that may be skipped, and why. */
export interface AllowedSkip {
  /** The spec or test file, relative to the repository root. */
  file: string;
  /** The test's full name as vitest reports it (describe titles and the test title, space-separated). */
  test: string;
  reason: string;
}

/** A level of tests: its reports in the results folder, and the files vitest.config.ts includes in it. */
export interface TestLevel {
  reports: string[];
  roots: string[];
  suffix: string;
}

/** As vitest.config.ts includes them (a level's files may be split between two reports: e2e's lanes). */
export const LEVELS: TestLevel[] = [
  { reports: ['unit.json'], roots: ['libs', 'apps', 'tools'], suffix: '.spec.ts' },
  { reports: ['integration.json'], roots: ['test/integration'], suffix: '.test.ts' },
  { reports: ['e2e.json', 'e2e-beside.json'], roots: ['test/e2e'], suffix: '.test.ts' },
];

/**
 * Test files of a level that ran (it has a report) but that no report of that level names: vitest
 * stopped before reaching them (a worker lost its link to vitest, a crash), which a count of skipped
 * tests cannot see. `filesOf` lists a level's files relative to the root.
 */
export function filesNotRun(
  reports: Map<string, VitestJsonReport>,
  filesOf: (level: TestLevel) => string[],
  root: string,
): string[] {
  const missing: string[] = [];
  for (const level of LEVELS) {
    const present = level.reports.filter((name) => reports.has(name));
    if (present.length === 0) continue;
    const ran = new Set(
      present.flatMap((name) => reports.get(name)!.testResults.map((file) => relative(root, file.name))),
    );
    for (const file of filesOf(level)) if (!ran.has(file)) missing.push(file);
  }
  return missing.sort();
}

/** A level's test files on disk, outside node_modules and build output. */
function levelFiles(root: string, level: TestLevel): string[] {
  return level.roots.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter((path) => path.endsWith(level.suffix) && !/(^|\/)(node_modules|dist)\//.test(path))
      .map((path) => join(dir, path)),
  );
}

export interface TestSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Skipped or todo tests the allow-list does not name, as `file > full name`. */
  unexpectedSkips: string[];
  /** Allow-list entries without a reason. */
  unexplained: string[];
  /**
   * What failed, as `file > full name: the error's message` (errorSummary), a file that failed as a whole
   * as `file: message`: printed last in the CI log, whose tail is often all a reader gets.
   */
  failures: string[];
}

/**
 * An error message without colour codes or stack: its non-blank lines up to the first stack frame,
 * joined with " ⏎ ", at most 600 characters (a service's log tail is often what explains a failure).
 */
export function errorSummary(message: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const plain = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines: string[] = [];
  for (const line of plain.split('\n')) {
    if (/^\s+at /.test(line) || /^\s*❯ /.test(line)) break;
    if (line.trim()) lines.push(line.trim());
  }
  const text = lines.join(' ⏎ ') || '(no message)';
  return text.length > 600 ? `${text.slice(0, 599)}…` : text;
}

const RAN = new Set(['passed', 'failed']);

export function summarize(reports: VitestJsonReport[], allowed: AllowedSkip[], root: string): TestSummary {
  const key = (file: string, test: string) => `${file} > ${test}`;
  const allowedKeys = new Set(allowed.map((a) => key(a.file, a.test)));
  const summary: TestSummary = {
    passed: 0,
    failed: 0,
    skipped: 0,
    unexpectedSkips: [],
    unexplained: [],
    failures: [],
  };
  for (const report of reports) {
    summary.passed += report.numPassedTests;
    summary.failed += report.numFailedTests;
    summary.skipped += report.numPendingTests + report.numTodoTests;
    for (const file of report.testResults) {
      const path = relative(root, file.name);
      const testFailed = file.assertionResults.some((test) => test.status === 'failed');
      if (file.status === 'failed' && !testFailed)
        summary.failures.push(`${path}: ${errorSummary(file.message)}`);
      for (const test of file.assertionResults) {
        if (test.status === 'failed') {
          summary.failures.push(`${key(path, test.fullName)}: ${errorSummary(test.failureMessages?.[0])}`);
        }
        if (RAN.has(test.status) || allowedKeys.has(key(path, test.fullName))) continue;
        summary.unexpectedSkips.push(`${key(path, test.fullName)} (${test.status})`);
      }
    }
  }
  summary.unexplained = allowed.filter((a) => !a.reason?.trim()).map((a) => key(a.file, a.test));
  return summary;
}

function main(resultsDir: string, allowListPath: string, root: string): number {
  const byName = new Map(
    readdirSync(resultsDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as VitestJsonReport]),
  );
  const reports = [...byName.values()];
  const allowed = JSON.parse(readFileSync(allowListPath, 'utf8')) as AllowedSkip[];
  const summary = summarize(reports, allowed, root);
  const notRun = filesNotRun(byName, (level) => levelFiles(root, level), root);
  console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  for (const file of notRun) console.error(`never ran (no report names it): ${file}`);
  for (const test of summary.unexpectedSkips) {
    console.error(`did not run, and ${relative(root, allowListPath)} does not allow it: ${test}`);
  }
  for (const test of summary.unexplained) {
    console.error(`${relative(root, allowListPath)} allows a skip without a reason: ${test}`);
  }
  for (const failure of summary.failures) console.error(`FAILED ${failure}`);
  return summary.unexpectedSkips.length || summary.unexplained.length || notRun.length ? 1 : 0;
}

if (require.main === module) {
  const root = join(__dirname, '..', '..');
  process.exitCode = main(process.argv[2], join(root, 'test', 'allowed-skips.json'), root);
}
