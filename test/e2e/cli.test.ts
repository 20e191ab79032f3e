import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { cleanEnv, quote, runInTerminal, runTrove, TROVE_BIN, type CliRun } from '../support/cli';
import { CONVERSATION, uploadConversation } from '../support/conversation';
import { ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';
import { docsSite, StaticSite } from '../support/static-site';

// The real `trove` binary (node apps/cli/bin/trove.js) against a real api and worker, as a
// script or a person runs it; folder sources may read the bundled samples, Notion sources reach
// the Notion API emulator.
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
/** The site `trove sources add web` points at. */
const site = new StaticSite(docsSite('Orchid'));
let stack: TroveStack;
const work = mkdtempSync(join(tmpdir(), 'trove-cli-e2e-'));
const nested = join(work, 'notes', 'deep');
const project = uniqueName('CLI e2e');
let env: NodeJS.ProcessEnv;

/** `trove <args>` from the nested folder, with the admin key in TROVE_API_KEY. */
function trove(
  args: string[],
  extraEnv: Record<string, string | undefined> = {},
  cwd = nested,
  input?: string,
): Promise<CliRun> {
  const runEnv = { ...env };
  for (const [name, value] of Object.entries(extraEnv)) {
    if (value === undefined) delete runEnv[name];
    else runEnv[name] = value;
  }
  return runTrove(args, { cwd, env: runEnv, input });
}

function json<T = Record<string, unknown>>(run: CliRun): T {
  expect(run.stderr, run.stderr).not.toMatch(/error:/);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  stack = new TroveStack({
    TROVE_FOLDER_ROOTS: join(ROOT, 'samples'),
    TROVE_NOTION_API_URL: await emulator.start(),
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    // `sources add web` reads the local site: private networks are allowed for this stack only.
    TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
    TROVE_WEB_REQUESTS_PER_SECOND: '50',
  });
  await site.start();
  await stack.start();
  mkdirSync(nested, { recursive: true });
  env = cleanEnv({ TROVE_API_KEY: ADMIN_KEY });
});

afterAll(async () => {
  await stack?.stop();
  await emulator.stop();
  await site.stop();
});

describe('trove init and where settings come from', () => {
  it('writes .trove.yaml without asking when given flags, and refuses to overwrite it without --force', async () => {
    const first = await trove(
      ['init', '--api-url', stack.url, '--project', project, '--mode', 'hybrid'],
      {},
      work,
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(join(work, '.trove.yaml'));

    const again = await trove(['init', '--project', 'Other'], {}, work);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/\.trove\.yaml exists; add --force/);
  });

  it('takes --project over TROVE_PROJECT over the nearest .trove.yaml (found from a subfolder)', async () => {
    type Cli = Record<string, string | null>;
    const fromFile = json<Cli>(await trove(['config', 'get', 'cli', '--json']));
    expect(fromFile).toMatchObject({
      'cli.apiUrl': stack.url,
      'cli.project': project,
      'cli.mode': 'HYBRID',
      'cli.file': join(work, '.trove.yaml'),
    });
    expect(fromFile['cli.apiKey']).not.toContain(ADMIN_KEY);

    const fromEnv = json<Cli>(
      await trove(['config', 'get', 'cli.project', '--json'], { TROVE_PROJECT: 'From env' }),
    );
    expect(fromEnv).toEqual({ 'cli.project': 'From env' });
    const fromFlag = json<Cli>(
      await trove(['--project', 'From flag', 'config', 'get', 'cli.project', '--json'], {
        TROVE_PROJECT: 'From env',
      }),
    );
    expect(fromFlag).toEqual({ 'cli.project': 'From flag' });

    const human = await trove(['config', 'get', 'cli']);
    expect(human.stdout).toMatch(/cli\.project\s+.+\(file .*\.trove\.yaml\)/);
  });

  it('names the file and the field of a wrong .trove.yaml (exit 2)', async () => {
    const broken = join(work, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, '.trove.yaml'), 'apiUrl: http://127.0.0.1:1\nmode: FUZZY\n');
    const run = await trove(['projects', 'list'], {}, broken);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(broken, '.trove.yaml'));
    expect(run.stderr).toMatch(/mode: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('projects, documents, search and ask', () => {
  it('creates the project and lists it (--json)', async () => {
    const created = json<{ id: string; name: string }>(
      await trove(['projects', 'create', project, '--json']),
    );
    expect(created.name).toBe(project);
    const listed = json<{ id: string; name: string; stats: { documentCount: number } }[]>(
      await trove(['projects', 'list', '--json']),
    );
    expect(listed.find((p) => p.id === created.id)).toMatchObject({
      name: project,
      stats: { documentCount: 0 },
    });
  });

  it('uploads every supported file of a folder, skips the rest with a note, and waits until they are READY', async () => {
    const folder = join(work, 'quickstart');
    cpSync(join(ROOT, 'samples', 'quickstart'), folder, { recursive: true });
    writeFileSync(join(folder, 'theme.css'), 'body { margin: 0 }');
    mkdirSync(join(folder, '.git'));
    writeFileSync(join(folder, '.git', 'HEAD'), 'ref: refs/heads/main');

    const run = await trove(['documents', 'add', folder, '--wait', '--json']);
    const result = json<{
      uploaded: { file: string; id: string }[];
      skipped: { path: string; reason: string }[];
      failed: unknown[];
      documents: { id: string; status: string; chunkCount: number }[];
    }>(run);
    expect(result.uploaded.map((u) => u.file.slice(folder.length + 1)).sort()).toEqual([
      'deploy-runbook.md',
      'interview-notes-ru.md',
      'search-basics.md',
    ]);
    expect(result.skipped).toEqual([
      { path: join(folder, 'theme.css'), reason: expect.stringMatching(/\.css: not a type Trove reads/) },
    ]);
    expect(run.stderr).toContain(`skipped ${join(folder, 'theme.css')}`);
    expect(result.failed).toEqual([]);
    expect(result.documents.map((d) => d.status)).toEqual(['READY', 'READY', 'READY']);
    expect(run.stderr).not.toMatch(/█|uploading/);

    const listed = json<{ totalCount: number }>(await trove(['documents', 'list', '--json']));
    expect(listed.totalCount).toBe(3);
    const status = await trove(['documents', 'status', result.uploaded[0]!.id]);
    expect(status.stdout).toMatch(/READY/);
  });

  it('continues past a file the api refuses, reports it at the end, and exits 1', async () => {
    const folder = join(work, 'mixed');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-disguised-archive.md'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]));
    writeFileSync(
      join(folder, 'b-release-notes.md'),
      '# Release notes\n\nVersion 2.14 adds the rollback prompt.\n',
    );
    const other = uniqueName('CLI e2e mixed');
    json(await trove(['projects', 'create', other, '--json']));
    const run = await trove(['--project', other, 'documents', 'add', folder]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Uploaded 1 of 2 files/);
    expect(run.stdout).toMatch(/1 failed:\n\s+.*a-disguised-archive\.md: .*\(UNSUPPORTED_MEDIA_TYPE\)/);
    expect(run.stderr).toMatch(/error: 1 of 2 files failed \(SOME_FAILED\)/);
    // Not a terminal: no progress bars even without --json.
    expect(run.stderr).not.toMatch(/█|uploading/);
  });

  it('searches (--json gives the result with hits, heading paths and citation URLs)', async () => {
    const result = json<{
      tookMs: number;
      hits: {
        chunkId: string;
        documentId: string;
        title: string;
        headingPath: string[];
        text: string;
        citationUrl: string;
        score: number;
      }[];
    }>(await trove(['search', 'roll back a release', '--limit', '3', '--json']));
    expect(result.hits).toHaveLength(3);
    expect(result.hits[0]).toMatchObject({
      title: 'Deploy runbook',
      headingPath: ['Deploy runbook', 'Rolling back'],
      fileName: 'deploy-runbook.md',
      sourceName: null,
    });
    expect(result.hits[0]!.citationUrl).toMatch(
      new RegExp(`^${stack.url}/v1/documents/[0-9a-f-]+/original\\?sig=`),
    );
    expect(typeof result.hits[0]!.score).toBe('number');

    const human = await trove([
      'search',
      'roll back a release',
      '--limit',
      '1',
      '--mode',
      'KEYWORD',
      '--expand',
      '1',
    ]);
    expect(human.code).toBe(0);
    // Where the hit comes from by name (an upload, then the document), and its file.
    expect(human.stdout).toMatch(/^1\. Uploads › Deploy runbook › Rolling back/);
    expect(human.stdout).toMatch(/^ {3}deploy-runbook\.md · chunk /m);
    expect(human.stdout).toMatch(/> If error rates climb after a release/);
  });

  it('asks: the extractive answer streamed, then numbered citations with URLs; --json gives the final result', async () => {
    const run = await trove(['ask', 'How do I roll back a release?']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/roll back first and investigate later \[1\]/);
    expect(run.stdout).toMatch(/EXTRACTIVE/);
    expect(run.stdout).toMatch(
      /Sources\n\s+\[1\] Deploy runbook › Rolling back\n\s+http:\/\/\S+\/original\?sig=/,
    );

    const result = json<{
      answer: string;
      mode: string;
      insufficientContext: boolean;
      citations: { marker: number; title: string; citationUrl: string }[];
    }>(await trove(['ask', 'How do I roll back a release?', '--json']));
    expect(result.mode).toBe('EXTRACTIVE');
    expect(result.insufficientContext).toBe(false);
    expect(result.citations[0]).toMatchObject({ marker: 1, title: 'Deploy runbook' });
    expect(result.answer).toContain('[1]');
  });
});

describe('conversations (ask --thread, threads)', () => {
  it('starts a thread, asks a follow-up in it (saying what it searched for), then lists, shows, renames and deletes it', async () => {
    const projectId = await stack.createProject(uniqueName('CLI threads'));
    await uploadConversation(stack, projectId);
    const inProject = ['--project', projectId, '--api-url', stack.url];
    const first = json<{ threadId: string; standaloneQuestion?: string }>(
      await trove(['ask', CONVERSATION.first, '--thread', 'new', '--json', ...inProject]),
    );
    expect(first.threadId).toMatch(/^thr_/);
    // As asked: nothing was rewritten (the stream leaves the field out).
    expect(first.standaloneQuestion).toBeUndefined();

    const followUp = await trove(['ask', CONVERSATION.followUp, '--thread', first.threadId, ...inProject]);
    expect(followUp.code, followUp.stderr).toBe(0);
    expect(followUp.stdout.split('\n')[0]).toBe(`Searched for: ${CONVERSATION.standalone}`);
    expect(followUp.stdout).toMatch(new RegExp(`\\[1\\] ${CONVERSATION.parking.title}`));
    expect(followUp.stdout).toContain(`Thread: ${first.threadId} (continue with --thread ${first.threadId})`);

    const listed = json<{ nodes: { id: string; turnCount: number }[] }>(
      await trove(['threads', 'list', '--json', ...inProject]),
    );
    expect(listed.nodes).toEqual([expect.objectContaining({ id: first.threadId, turnCount: 2 })]);
    const shown = await trove(['threads', 'show', first.threadId, ...inProject]);
    expect(shown.stdout).toContain(`2. ${CONVERSATION.followUp}\nSearched for: ${CONVERSATION.standalone}\n`);
    const renamed = json<{ title: string }>(
      await trove(['threads', 'rename', first.threadId, 'Parking', '--json', ...inProject]),
    );
    expect(renamed.title).toBe('Parking');
    expect((await trove(['threads', 'delete', first.threadId, ...inProject])).code).toBe(0);
    expect((await trove(['threads', 'show', first.threadId, ...inProject])).code).toBe(3);
    expect((await trove(['ask', 'q', '--thread', 'yesterday', ...inProject])).code).toBe(2);
  });
});

describe('sources', () => {
  it('adds the MkDocs sample as a folder source and syncs it to the end with the page counts', async () => {
    const added = json<{ id: string; type: string }>(
      await trove([
        'sources',
        'add-folder',
        join(ROOT, 'samples', 'handbook-site'),
        '--name',
        'Handbook',
        '--json',
      ]),
    );
    expect(added.type).toBe('FOLDER');
    const run = json<{
      status: string;
      progress: { pagesSeen: number; pagesIngested: number; pagesFailed: number };
    }>(await trove(['sources', 'sync', 'Handbook', '--wait', '--json']));
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesSeen: 5, pagesIngested: 5, pagesFailed: 0 });

    const human = await trove(['sources', 'runs', 'Handbook']);
    expect(human.stdout).toMatch(/INCREMENTAL\s+COMPLETED/);
    const hit = json<{ hits: { citationUrl: string }[] }>(
      await trove(['search', 'restore a backup', '--limit', '1', '--json']),
    );
    expect(hit.hits[0]!.citationUrl).toBe('https://handbook.example.com/operations/backups/#restore');
  });

  it('adds a Notion source (token from NOTION_TOKEN) and syncs it, in a project of its own', async () => {
    const wiki = uniqueName('CLI e2e wiki');
    json(await trove(['projects', 'create', wiki, '--json']));
    const root = `https://www.notion.so/Onboarding-${DEFAULT_IDS.onboarding.replace(/-/g, '')}`;
    const added = await trove(
      ['--project', wiki, 'sources', 'add-notion', '--name', 'Wiki', '--root', root],
      {
        NOTION_TOKEN: emulator.token,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).not.toContain(emulator.token);
    const run = json<{ status: string; progress: { pagesSeen: number; pagesIngested: number } }>(
      await trove(['--project', wiki, 'sources', 'sync', 'wiki', '--mode', 'FULL', '--wait', '--json']),
    );
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesSeen).toBeGreaterThan(0);
    expect(run.progress.pagesIngested).toBe(run.progress.pagesSeen);

    const noToken = await trove(['--project', wiki, 'sources', 'add-notion', '--name', 'Other'], {
      NOTION_TOKEN: undefined,
    });
    expect(noToken.code).toBe(2);
  });
});

describe('sources of any type (sources types, sources add <type>)', () => {
  it('lists the types with the flags their fields make, and shows a type’s flags in its help', async () => {
    const types = await trove(['sources', 'types']);
    expect(types.code, types.stderr).toBe(0);
    expect(types.stdout).toMatch(/^web {2}Web site: /m);
    expect(types.stdout).toMatch(/--url {2}url: string \(uri\) \[required\]/);
    expect(types.stdout).toMatch(/--max-pages {2}maxPages: integer 1\.\.100000 \[optional\]/);
    expect(types.stdout).toMatch(/--token {2}token: string \[required, secret\]/);
    const listed = json<{ type: string }[]>(await trove(['sources', 'types', '--json']));
    expect(listed.map((info) => info.type)).toEqual(expect.arrayContaining(['NOTION', 'FOLDER', 'WEB']));

    const help = await trove(['sources', 'add', 'web', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: trove sources add web');
    expect(help.stdout).toMatch(/--max-pages <n> +At most this many pages/);
    const notionHelp = await trove(['sources', 'add', 'NOTION', '--help']);
    expect(notionHelp.stdout).toMatch(/--token-env <name>/);
    expect(notionHelp.stdout).toMatch(/--token-stdin/);
    expect(notionHelp.stdout).toMatch(/--root-page-ids <value> .*\(repeatable\)/s);
  });

  it('names the known types for an unknown one, and the flag of each field the API refuses (exit 2)', async () => {
    const unknown = await trove(['sources', 'add', 'gopher', '--name', 'Old']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown source type "gopher"; the API knows .*web/);

    const invalid = await trove([
      'sources',
      'add',
      'web',
      '--name',
      'Orchids',
      '--url',
      'not a url',
      '--max-pages',
      '0',
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('the Web site source was not added:');
    expect(invalid.stderr).toMatch(/^ {2}url \(--url\): /m);
    expect(invalid.stderr).toMatch(/^ {2}maxPages \(--max-pages\): .*1/m);
    expect(invalid.stderr).not.toMatch(/\n\s+at /);

    const notNumber = await trove(['sources', 'add', 'web', '--name', 'Orchids', '--max-pages', 'many']);
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain('--max-pages must be a whole number');
  });

  it('adds a web source from --config @file with a flag over it, and syncs it to the end', async () => {
    writeFileSync(join(nested, 'orchids.json'), JSON.stringify({ url: `${site.url}/docs/`, maxPages: 50 }));
    const added = json<{ id: string; type: string; config: { url: string; maxPages: number } }>(
      await trove([
        'sources',
        'add',
        'web',
        '--name',
        'Orchids',
        '--config',
        '@orchids.json',
        '--max-pages',
        '5',
        '--json',
      ]),
    );
    expect(added).toMatchObject({ type: 'WEB', config: { url: `${site.url}/docs/`, maxPages: 5 } });
    const run = json<{ status: string; progress: { pagesIngested: number } }>(
      await trove(['sources', 'sync', 'Orchids', '--mode', 'FULL', '--wait', '--json']),
    );
    expect(run).toMatchObject({ status: 'COMPLETED', progress: { pagesIngested: 2 } });
    expect(site.requests).toContain('/docs/care.html');
  });

  it('reads a secret from standard input and never prints it', async () => {
    const root = `https://www.notion.so/Onboarding-${DEFAULT_IDS.onboarding.replace(/-/g, '')}`;
    const added = await trove(
      [
        'sources',
        'add',
        'notion',
        '--name',
        'Wiki from stdin',
        '--token-stdin',
        '--root-page-ids',
        root,
        '--json',
      ],
      {},
      nested,
      `${emulator.token}\n`,
    );
    const source = json<{
      type: string;
      secrets: { field: string; hint: string }[];
      config: { rootPageIds: string[] };
    }>(added);
    expect(source.type).toBe('NOTION');
    expect(source.secrets).toEqual([{ field: 'token', hint: expect.any(String) }]);
    expect(source.config.rootPageIds).toEqual([DEFAULT_IDS.onboarding]);
    expect(added.stdout + added.stderr).not.toContain(emulator.token);
    const fromEnv = await trove(
      ['sources', 'add', 'notion', '--name', 'Wiki from env', '--token-env', 'MY_NOTION'],
      {
        MY_NOTION: emulator.token,
      },
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toMatch(/Added Notion workspace source Wiki from env .* \(token .+\)/);
    expect(fromEnv.stdout + fromEnv.stderr).not.toContain(emulator.token);
  });
});

describe('server settings', () => {
  it('config set changes a setting (converted by its type), config get reads it back, an empty value resets it', async () => {
    const set = await trove(['config', 'set', 'answers.topK=6', 'answers.threshold=0.8']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/overridden: .*answers\.topK/);
    expect(json(await trove(['config', 'get', 'answers.topK', '--json']))).toEqual({ 'answers.topK': 6 });
    expect((await trove(['config', 'get', 'answers.threshold'])).stdout).toBe('0.8\n');

    json(await trove(['config', 'set', 'answers.topK=', 'answers.threshold=', '--json']));
    expect(json(await trove(['config', 'get', 'answers.topK', '--json']))).toEqual({ 'answers.topK': 8 });
    const all = await trove(['config', 'get']);
    expect(all.stdout).toMatch(/^llm\.apiKey\s+\S+/m);
    expect(all.stdout).not.toContain(ADMIN_KEY);
    expect((await trove(['config', 'set', 'answers.nonsense=1'])).code).toBe(2);

    const secret = 'sk-cli-e2e-0123456789abcdef';
    json(await trove(['config', 'set', `rerank.apiKey=${secret}`, '--json']));
    const masked = await trove(['config', 'get', 'rerank', '--json']);
    expect(masked.stdout).not.toContain(secret);
    expect(JSON.parse(masked.stdout)['rerank.apiKey']).toMatch(/^sk-c…/);
    json(await trove(['config', 'set', 'rerank.apiKey=', '--json']));
  });
});

describe('keys and exit codes', () => {
  it('creates a VIEWER key (secret shown once) that may search but gets exit 4 uploading', async () => {
    const human = await trove([
      'keys',
      'create',
      '--name',
      'cli e2e viewer',
      '--role',
      'VIEWER',
      '--projects',
      project,
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/shown this once/);
    const secret = /^\s+(trove_\S+)$/m.exec(human.stdout)![1]!;

    const viewer = { TROVE_API_KEY: secret };
    expect((await trove(['search', 'rollback', '--limit', '1', '--json'], viewer)).code).toBe(0);
    const upload = await trove(
      ['documents', 'add', join(ROOT, 'samples', 'quickstart', 'search-basics.md')],
      viewer,
    );
    expect(upload.code).toBe(4);
    expect(upload.stderr).toMatch(/error: .*\(FORBIDDEN\)/);
    expect(upload.stderr).not.toMatch(/\n\s+at /);

    const listed = json<{ name: string; prefix: string }[]>(await trove(['keys', 'list', '--json']));
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(listed.some((k) => k.name === 'cli e2e viewer')).toBe(true);
  });

  it('exits 4 without a valid key, 3 for what does not exist, 2 for a wrong command line', async () => {
    const noKey = await trove(['projects', 'list'], { TROVE_API_KEY: 'not-a-key' });
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toMatch(/UNAUTHENTICATED/);

    expect((await trove(['documents', 'status', '0123456789abcdef0123456789abcdef'])).code).toBe(3);
    const noProject = await trove(['--project', 'No such project', 'search', 'x', '--json']);
    expect(noProject.code).toBe(3);
    expect(JSON.parse(noProject.stdout)).toMatchObject({ error: { code: 'PROJECT_NOT_FOUND', exitCode: 3 } });
    expect((await trove(['sources', 'sync', 'No such source'])).code).toBe(3);

    expect((await trove(['search'])).code).toBe(2);
    const badLimit = await trove(['search', 'x', '--limit', 'many', '--json']);
    expect(badLimit.code).toBe(2);
    expect(JSON.parse(badLimit.stdout)).toMatchObject({ error: { code: 'USAGE', exitCode: 2 } });
    expect(badLimit.stderr).toMatch(/--limit must be a whole number/);
    expect((await trove(['documents', 'frobnicate'])).code).toBe(2);
    expect((await trove(['config', 'set', 'answers.topK=lots'])).code).toBe(2);
    const help = await trove(['documents', 'add', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples:/);
  });
});

describe('on a terminal', () => {
  const shell = (args: string[]) => ['node', TROVE_BIN, ...args].map(quote).join(' ');

  it('draws upload, indexing and sync progress bars, and colours', async () => {
    const folder = join(work, 'terminal');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'terminal-notes.md'),
      '# Terminal notes\n\nProgress bars are drawn on stderr.\n',
    );
    const upload = await runInTerminal(shell(['documents', 'add', folder, '--wait']), { cwd: nested, env });
    expect(upload.code, upload.stdout).toBe(0);
    expect(upload.stdout).toMatch(/uploading \[█+\] 100% \| \S+ \S+\/\S+ \S+ terminal-notes\.md/);
    expect(upload.stdout).toMatch(/indexing\s+\[█+\] 1\/1 \| 1 ready, 0 failed/);

    const sync = await runInTerminal(shell(['sources', 'sync', 'Handbook', '--mode', 'FULL', '--wait']), {
      cwd: nested,
      env,
    });
    expect(sync.code, sync.stdout).toBe(0);
    expect(sync.stdout).toMatch(/syncing \[[█░]+\] \d+\/\d+ pages \| 5 seen/);
    expect(sync.stdout).toContain('\u001b[32mCOMPLETED\u001b[39m');
  });

  it('init asks for what the flags leave out', async () => {
    const folder = join(work, 'interactive');
    mkdirSync(folder);
    const run = await runInTerminal(shell(['init']), {
      cwd: folder,
      env,
      input: `${stack.url}\n${project}\nkeyword\n`,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/API URL \[http:\/\/127\.0\.0\.1:4000\]: /);
    const settings = json<Record<string, string>>(
      await trove(['config', 'get', 'cli', '--json'], {}, folder),
    );
    expect(settings).toMatchObject({
      'cli.apiUrl': stack.url,
      'cli.project': project,
      'cli.mode': 'KEYWORD',
    });
  });

  it('draws nothing and colours nothing with --json, with NO_COLOR no colour', async () => {
    const folder = join(work, 'terminal-json');
    mkdirSync(folder);
    writeFileSync(join(folder, 'terminal-json.md'), '# Terminal JSON\n\nNo bars here.\n');
    const run = await runInTerminal(shell(['documents', 'add', folder, '--wait', '--json']), {
      cwd: nested,
      env,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toMatch(/█|uploading|indexing/);
    expect(run.stdout).not.toContain('\u001b[');
    expect(JSON.parse(run.stdout).uploaded).toHaveLength(1);

    const plain = await runInTerminal(shell(['sources', 'list']), {
      cwd: nested,
      env: { ...env, NO_COLOR: '1' },
    });
    expect(plain.stdout).toMatch(/Handbook/);
    expect(plain.stdout).not.toContain('\u001b[1m');
  });
});
