import { describe, expect, it } from 'vitest';
import { errorSummary, filesNotRun, summarize, type TestLevel, type VitestJsonReport } from './test-summary';

const ROOT = '/repo';

function report(tests: { fullName: string; status: string; failureMessages?: string[] }[]): VitestJsonReport {
  const count = (status: string) => tests.filter((t) => t.status === status).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped') + count('pending'),
    numTodoTests: count('todo'),
    testResults: [{ name: `${ROOT}/libs/x/src/x.spec.ts`, assertionResults: tests }],
  };
}

describe('summarize (the last stage of npm test)', () => {
  it('counts a run where every test ran, and finds nothing to report', () => {
    const summary = summarize(
      [
        report([
          { fullName: 'x adds', status: 'passed' },
          { fullName: 'x fails', status: 'failed' },
        ]),
      ],
      [],
      ROOT,
    );
    expect(summary).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      unexpectedSkips: [],
      unexplained: [],
      failures: ['libs/x/src/x.spec.ts > x fails: (no message)'],
    });
  });

  it('names each failed test with the message of its error (not its stack), and a file that failed as a whole', () => {
    const failedTest = report([
      { fullName: 'x passes', status: 'passed' },
      {
        fullName: 'x ranks the runbook',
        status: 'failed',
        failureMessages: [
          '\n\u001b[31mAssertionError: expected 0.70 to be >= 0.71\u001b[39m\n    at x.spec.ts:3:1',
        ],
      },
    ]);
    const brokenFile: VitestJsonReport = {
      ...report([]),
      testResults: [
        {
          name: `${ROOT}/test/y.test.ts`,
          status: 'failed',
          message: 'up.sh elasticsearch failed:\n\nport 9300 in use\n    at start (x.ts:1:1)\nmore',
          assertionResults: [],
        },
      ],
    };
    expect(summarize([failedTest, brokenFile], [], ROOT).failures).toEqual([
      'libs/x/src/x.spec.ts > x ranks the runbook: AssertionError: expected 0.70 to be >= 0.71',
      'test/y.test.ts: up.sh elasticsearch failed: ⏎ port 9300 in use',
    ]);
  });

  it('cuts a long message at 600 characters', () => {
    expect(errorSummary('x'.repeat(700))).toBe(`${'x'.repeat(599)}…`);
  });

  it('reports a skipped and a todo test that the allow-list does not name', () => {
    const summary = summarize(
      [
        report([
          { fullName: 'x adds', status: 'passed' },
          { fullName: 'x subtracts', status: 'skipped' },
          { fullName: 'x divides', status: 'todo' },
        ]),
      ],
      [],
      ROOT,
    );
    expect(summary.skipped).toBe(2);
    expect(summary.unexpectedSkips).toEqual([
      'libs/x/src/x.spec.ts > x subtracts (skipped)',
      'libs/x/src/x.spec.ts > x divides (todo)',
    ]);
  });

  it('accepts a skip the allow-list names with a reason, and only in that file', () => {
    const tests = [{ fullName: 'x subtracts', status: 'skipped' }];
    const allowed = [{ file: 'libs/x/src/x.spec.ts', test: 'x subtracts', reason: 'needs a GPU' }];
    expect(summarize([report(tests)], allowed, ROOT).unexpectedSkips).toEqual([]);
    const elsewhere = [{ ...allowed[0], file: 'libs/y/src/y.spec.ts' }];
    expect(summarize([report(tests)], elsewhere, ROOT).unexpectedSkips).toEqual([
      'libs/x/src/x.spec.ts > x subtracts (skipped)',
    ]);
  });

  it('refuses an allow-list entry without a reason', () => {
    const tests = [{ fullName: 'x subtracts', status: 'skipped' }];
    const allowed = [{ file: 'libs/x/src/x.spec.ts', test: 'x subtracts', reason: ' ' }];
    expect(summarize([report(tests)], allowed, ROOT).unexplained).toEqual([
      'libs/x/src/x.spec.ts > x subtracts',
    ]);
  });
});

describe('filesNotRun (files vitest never reached)', () => {
  const ran = (...files: string[]): VitestJsonReport => ({
    numPassedTests: files.length,
    numFailedTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: files.map((file) => ({
      name: `${ROOT}/${file}`,
      assertionResults: [{ fullName: 't', status: 'passed' }],
    })),
  });
  const onDisk = (level: TestLevel) =>
    ({
      '.spec.ts': ['libs/a/src/a.spec.ts'],
      '.test.ts':
        level.roots[0] === 'test/e2e'
          ? ['test/e2e/api.test.ts', 'test/e2e/faults.test.ts']
          : ['test/integration/a.test.ts', 'test/integration/b.test.ts'],
    })[level.suffix] ?? [];

  it('names a file of a level that ran but that no report of that level names', () => {
    const reports = new Map([
      ['integration.json', ran('test/integration/a.test.ts')],
      ['unit.json', ran('libs/a/src/a.spec.ts')],
    ]);
    expect(filesNotRun(reports, onDisk, ROOT)).toEqual(['test/integration/b.test.ts']);
  });

  it("counts e2e's two lanes together, and leaves out levels that did not run", () => {
    const reports = new Map([
      ['e2e.json', ran('test/e2e/api.test.ts')],
      ['e2e-beside.json', ran('test/e2e/faults.test.ts')],
    ]);
    expect(filesNotRun(reports, onDisk, ROOT)).toEqual([]);
    reports.delete('e2e-beside.json');
    expect(filesNotRun(reports, onDisk, ROOT)).toEqual(['test/e2e/faults.test.ts']);
  });
});
