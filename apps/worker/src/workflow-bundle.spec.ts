import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceFiles, workflowBundle } from './workflow-bundle';

// Inside the repository (gitignored), where the workflows resolve @temporalio/workflow.
const scratch = join(__dirname, '..', '..', '..', '.trove', 'tmp');
mkdirSync(scratch, { recursive: true });
const dir = mkdtempSync(join(scratch, 'bundle-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const workflows = join(dir, 'workflows.ts');
const helper = join(dir, 'greeting.ts');
const cacheDir = join(dir, 'kept');
const write = (greeting: string) => {
  writeFileSync(helper, `export const greeting = ${JSON.stringify(greeting)};\n`);
  writeFileSync(
    workflows,
    `import { greeting } from './greeting';\nexport async function hello() { return greeting; }\n`,
  );
};

describe('the kept workflow bundle', () => {
  it('is made once, reused while its sources are unchanged, and made again when one changes', async () => {
    write('hello');
    const logs: string[] = [];
    const first = await workflowBundle({ workflowsPath: workflows, cacheDir, log: (m) => logs.push(m) });
    expect(sourceFiles(first.code)).toEqual(expect.arrayContaining([workflows, helper]));
    expect(logs).toHaveLength(1);

    const second = await workflowBundle({ workflowsPath: workflows, cacheDir, log: (m) => logs.push(m) });
    expect(second.code).toBe(first.code);
    expect(logs).toHaveLength(1); // nothing bundled

    // A file the workflows import (not the entry point) changes: the kept bundle is not used.
    write('bonjour');
    const third = await workflowBundle({ workflowsPath: workflows, cacheDir, log: (m) => logs.push(m) });
    expect(third.code).toContain('bonjour');
    expect(third.code).not.toContain('"hello"');
    expect(logs).toHaveLength(2);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.js'))).toHaveLength(2);
  }, 120_000);
});
