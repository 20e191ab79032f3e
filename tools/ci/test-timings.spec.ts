import { describe, expect, it } from 'vitest';
import { fileTimings, parseStackTimings, parseStages, stackTable, timingTable } from './test-timings';

describe('the timing table npm test prints', () => {
  it('reads the stage log scripts/test.sh writes', () => {
    expect(
      parseStages('lint\t31\tok\nunit\t402\tfailed\t97\t\ntypecheck\t90\tok\t88\tintegration\n'),
    ).toEqual([
      { stage: 'lint', seconds: 31, ok: true },
      { stage: 'unit', seconds: 402, ok: false, cpuPercent: 97 },
      { stage: 'typecheck', seconds: 90, ok: true, cpuPercent: 88, beside: 'integration' },
    ]);
  });

  it('orders a project’s files by wall time, with paths relative to the root', () => {
    const report = {
      testResults: [
        { name: '/repo/test/e2e/a.test.ts', startTime: 1_000, endTime: 3_500, status: 'passed' },
        { name: '/repo/test/e2e/b.test.ts', startTime: 4_000, endTime: 14_000, status: 'failed' },
      ],
    };
    expect(fileTimings('e2e', report, '/repo')).toEqual([
      { project: 'e2e', file: 'test/e2e/b.test.ts', seconds: 10 },
      { project: 'e2e', file: 'test/e2e/a.test.ts', seconds: 2.5 },
    ]);
  });

  it('sums the stages and each project, and lists only the slowest files', () => {
    const table = timingTable(
      [
        { stage: 'lint', seconds: 30, ok: true },
        { stage: 'typecheck', seconds: 80, ok: true, cpuPercent: 91, beside: 'e2e' },
        { stage: 'e2e', seconds: 900.5, ok: false, cpuPercent: 74 },
      ],
      [
        { project: 'e2e', file: 'test/e2e/b.test.ts', seconds: 10 },
        { project: 'e2e', file: 'test/e2e/a.test.ts', seconds: 2.5 },
      ],
      1,
    );
    expect(table).toContain('| e2e | 900.5 | 74 % | FAILED |');
    expect(table).toContain('| lint | 30.0 |  | ok |');
    // What ran beside another stage is shown, and not counted twice.
    expect(table).toContain('| typecheck (beside e2e) | 80.0 | 91 % | ok |');
    expect(table).toContain('| **all stages** | **930.5** | | |');
    expect(table).toContain('e2e: 2 files, 12.5 s summed over files');
    expect(table).toContain('| test/e2e/b.test.ts | 10.0 |');
    expect(table).not.toContain('a.test.ts');
  });

  it('sums stack starts and stops, and names the files that pay most for them', () => {
    const stacks = parseStackTimings(
      'test/e2e/a.test.ts\tstart\t6.00\ntest/e2e/a.test.ts\tstop\t2.00\n' +
        'test/e2e/b.test.ts\tstart\t5.00\ntest/e2e/b.test.ts\tstart\t7.00\ntest/e2e/b.test.ts\tstop\t1.50\n',
    );
    const table = stackTable(stacks);
    expect(table).toContain('stack starts: 3, 18.0 s (mean 6.0 s)');
    expect(table).toContain('stack stops: 2, 3.5 s (mean 1.8 s)');
    const rows = table.split('\n').filter((line) => line.startsWith('| test/'));
    expect(rows).toEqual(['| test/e2e/b.test.ts | 2 | 13.5 |', '| test/e2e/a.test.ts | 1 | 8.0 |']);
    expect(stackTable([])).toBe('');
  });
});
