import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runShellLine } from '../support/cli';
import { ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// The "Use it from a terminal (CLI)" section of docs/cli.md and the trove-research skill, run as a
// reader runs them: every `trove …` / `npx trove …` line of their code blocks, in order, from a
// folder laid out like the repository after the quick start (samples/, .trove/admin-api-key).
const repo = mkdtempSync(join(tmpdir(), 'trove-cli-docs-'));
const stack = new TroveStack({ TROVE_FOLDER_ROOTS: join(repo, 'samples') });
let env: NodeJS.ProcessEnv;

interface Block {
  lang: string;
  lines: string[];
}

/** The fenced code blocks of some Markdown, in order. */
function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence && !open) open = { lang: fence[1]!, lines: [] };
    else if (fence && open) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.lines.push(line);
  }
  return blocks;
}

const isShell = (block: Block) => ['bash', 'sh', 'shell', 'console'].includes(block.lang);
const trovesIn = (block: Block) =>
  block.lines.map((line) => line.trim().replace(/^\$ /, '')).filter((line) => /^(npx )?trove /.test(line));

/** The CLI section of docs/cli.md (the reference the README links to), to the next section or the end. */
function readmeSection(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const start = doc.indexOf('\n## Use it from a terminal (CLI)\n');
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

beforeAll(async () => {
  await stack.start();
  cpSync(join(ROOT, 'samples'), join(repo, 'samples'), { recursive: true });
  mkdirSync(join(repo, '.trove'));
  writeFileSync(join(repo, '.trove', 'admin-api-key'), `${ADMIN_KEY}\n`);
  // The README's api is the quick start's on :4000; this one has its own port. The key comes
  // from the file `trove init --api-key-file` names, as in the README.
  env = cleanEnv({ TROVE_API_URL: stack.url });
});

afterAll(async () => {
  await stack.stop();
});

describe('docs/cli.md: Use it from a terminal (CLI)', () => {
  it('runs every command of the section, in order, with exit 0', async () => {
    // All but `trove login`: it needs a person at the identity provider's page, which this stack
    // has none of; test/e2e/personal-access.test.ts runs it against the real Keycloak.
    const commands = codeBlocks(readmeSection())
      .filter(isShell)
      .flatMap(trovesIn)
      .filter((command) => !/^(npx )?trove login\b/.test(command));
    expect(commands.length).toBeGreaterThanOrEqual(10);
    const outputs: string[] = [];
    for (const command of commands) {
      const run = await runShellLine(command, { cwd: repo, env });
      expect(run.code, `${command}\n${run.stdout}\n${run.stderr}`).toBe(0);
      outputs.push(run.stdout);
    }
    expect(readFileSync(join(repo, '.trove.yaml'), 'utf8')).toMatch(/apiKeyFile: \.trove\/admin-api-key/);
    const searchJson = commands.findIndex(
      (command) => command.includes('search') && command.endsWith('--json'),
    );
    expect(JSON.parse(outputs[searchJson]!).hits[0]).toMatchObject({ title: 'Incident response' });
    const ask = commands.findIndex((command) => command.includes(' ask '));
    expect(outputs[ask]).toMatch(/Sources\n\s+\[1\] Deploy runbook › Rolling back/);
  });

  it('shows a .trove.yaml the CLI accepts', async () => {
    const yaml = codeBlocks(readmeSection()).find((block) => block.lang === 'yaml')!;
    const folder = join(repo, 'yaml-check');
    mkdirSync(join(folder, '.trove'), { recursive: true });
    writeFileSync(join(folder, '.trove.yaml'), yaml.lines.join('\n'));
    writeFileSync(join(folder, '.trove', 'admin-api-key'), ADMIN_KEY);
    const run = await runShellLine('trove config get cli --json', { cwd: folder, env: cleanEnv() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ 'cli.project': 'CLI demo', 'cli.mode': 'HYBRID' });
  });
});

describe('skills/trove-research/SKILL.md', () => {
  const skill = readFileSync(join(ROOT, 'skills', 'trove-research', 'SKILL.md'), 'utf8');

  it('has the front matter agents read', () => {
    const front = /^---\n([\s\S]+?)\n---\n/.exec(skill)?.[1] ?? '';
    expect(front).toMatch(/^name: trove-research$/m);
    expect(front).toMatch(/^description: .{80,}$/m);
  });

  it('runs every trove command it shows (on the README project), and finds what each example shows', async () => {
    const blocks = codeBlocks(skill);
    const steps = blocks.flatMap((block, index) => {
      if (!isShell(block)) return [];
      const next = blocks[index + 1];
      const shown = next && next.lang === 'text' ? next.lines : [];
      return trovesIn(block).map((command) => ({ command, shown }));
    });
    expect(steps.length).toBeGreaterThanOrEqual(5);
    // The output blocks the skill shows, each listing at least one hit for the loop below to check.
    const numbered = (lines: string[]) => lines.filter((line) => /^\d+\. /.test(line));
    const outputBlocks = [...new Set(steps.map((step) => step.shown))].filter((lines) => lines.length > 0);
    expect(outputBlocks.length).toBeGreaterThanOrEqual(5);
    for (const lines of outputBlocks) expect(numbered(lines), lines[0]).not.toEqual([]);
    const outputs: string[] = [];
    let checkedHits = 0;
    for (const { command, shown } of steps) {
      const run = await runShellLine(command, { cwd: repo, env });
      expect(run.code, `${command}\n${run.stderr}`).toBe(0);
      outputs.push(run.stdout);
      // Every hit the skill shows for this command (title › heading) is in the real output. A
      // numbered line the pattern cannot read fails here rather than going unchecked.
      for (const line of numbered(shown)) {
        // A hit line is its rank and where it is, with no score after it.
        const hit = /^\d+\. (.+?)$/.exec(line);
        expect(line, `${command}: a score after a shown hit`).not.toMatch(/ {2}-?[\d.]+$/);
        expect(hit, `${command}: a shown hit in an unexpected shape: ${line}`).not.toBeNull();
        expect(run.stdout, `${command}: ${hit![1]}`).toContain(hit![1]);
        checkedHits++;
      }
    }
    expect(checkedHits).toBeGreaterThanOrEqual(outputBlocks.length);
    // Every site link the skill cites (in outputs and answers) came out of one of its commands.
    const cited = new Set(skill.match(/https:\/\/handbook\.example\.com\/[^\s)`]+/g) ?? []);
    expect(cited.size).toBeGreaterThanOrEqual(4);
    for (const url of cited) expect(outputs.join('\n'), url).toContain(url);
  });
});
