import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenAiServer } from '@trove/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryValue } from '../support/canary';
import { expectEventually, freePort, ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Metrics and logs of the real api and worker, read the way an operator's tools read them: every
// /metrics passes `promtool check metrics`, a real Prometheus scrapes both with the bearer token
// and sees the ingest histograms move after an upload, and no secret or document text reaches a
// log line or a metric.

const METRICS_TOKEN = canaryValue('metrics-token');
const OPENAI_KEY = `sk-${canaryValue('openai-key')}`;
const NOTION_TOKEN = `ntn_${canaryValue('notion-token')}`;
const VERIFICATION_TOKEN = `secret_${canaryValue('webhook-verification')}`;
/** A sentence of the uploaded document that must never leave the catalog and the index. */
const DOCUMENT_TEXT = `The lighthouse keeper logs ${canaryValue('document-text')} every night.`;

let stack: TroveStack;
let llm: FakeOpenAiServer;
let prometheusBin: string;
let promtoolBin: string;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let prometheusDir: string;
let projectId: string;

beforeAll(() => {
  // Built from the Go module proxy once (several minutes), then reused.
  const found = execFileSync('bash', [join(ROOT, 'infra/local/install-prometheus.sh')], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  [prometheusBin, promtoolBin] = found;
}, 1_800_000);

beforeAll(async () => {
  llm = await FakeOpenAiServer.start({ apiKey: OPENAI_KEY, models: ['fake-model'] });
  // A cited answer its passage supports: it stays the model's (an unsupported one would be
  // replaced by the extractive answer and counted under that mode).
  llm.defaultReply = { text: 'The lighthouse keeper logs it every night [1].' };
  stack = new TroveStack({
    TROVE_METRICS_TOKEN: METRICS_TOKEN,
    TROVE_LLM_PROVIDER: 'openai',
    TROVE_LLM_BASE_URL: llm.baseUrl,
    TROVE_LLM_MODEL: 'fake-model',
    TROVE_LLM_API_KEY: OPENAI_KEY,
    // Small uploads go through batches; a larger one (the broken PDF below) through its own
    // per-document activities, whose permanent failure the worker logs.
    TROVE_SYNC_BATCH_MAX_BYTES: '2000',
  });
  await stack.start();
  projectId = await stack.createProject('Metrics and logs');
});

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  if (prometheusDir) rmSync(prometheusDir, { recursive: true, force: true });
  await stack?.stop();
  await llm?.close();
});

/** GET a /metrics; `token` null sends no Authorization header. */
async function scrape(url: string, token: string | null = METRICS_TOKEN) {
  const response = await fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  return { status: response.status, text: await response.text() };
}

const apiMetricsUrl = () => `${stack.url}/metrics`;

/** `promtool check metrics`: the exposition parses and follows Prometheus's naming conventions. */
function promtoolCheck(text: string): { status: number | null; output: string } {
  const result = spawnSync(promtoolBin, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function promQuery(query: string): Promise<number | undefined> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as {
    status: string;
    data: { result: { value: [number, string] }[] };
  };
  if (body.status !== 'success') throw new Error(`query ${query}: ${JSON.stringify(body)}`);
  const [first] = body.data.result;
  return first ? Number(first.value[1]) : undefined;
}

describe('/metrics', () => {
  it('is refused without the token, and with a wrong one, on the api and the worker', async () => {
    for (const url of [apiMetricsUrl(), stack.workerMetricsUrl()]) {
      expect((await scrape(url, null)).status).toBe(401);
      expect((await scrape(url, 'not-the-metrics-token-at-all')).status).toBe(401);
      // An API key is not a metrics token.
      expect((await scrape(url, ADMIN_KEY)).status).toBe(401);
      expect((await scrape(url)).status).toBe(200);
    }
  });

  it('passes promtool check metrics on the api and on the worker', async () => {
    for (const url of [apiMetricsUrl(), stack.workerMetricsUrl()]) {
      const { text } = await scrape(url);
      expect(text).toContain('# TYPE trove_');
      const check = promtoolCheck(text);
      expect(check.output).toBe('');
      expect(check.status).toBe(0);
    }
  });
});

describe('a real Prometheus scraping the api and the worker', () => {
  it('sees the ingest histograms move after an upload', async () => {
    prometheusDir = mkdtempSync(join(tmpdir(), 'trove-prometheus-'));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const target = (url: string) => new URL(url).host;
    writeFileSync(join(prometheusDir, 'token'), METRICS_TOKEN);
    writeFileSync(
      join(prometheusDir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s }',
        'scrape_configs:',
        ...[
          ['trove-api', target(apiMetricsUrl())],
          ['trove-worker', target(stack.workerMetricsUrl())],
        ].flatMap(([job, host]) => [
          `  - job_name: ${job}`,
          `    authorization: { credentials_file: ${join(prometheusDir, 'token')} }`,
          `    static_configs: [{ targets: ['${host}'] }]`,
        ]),
        '',
      ].join('\n'),
    );
    expect(spawnSync(promtoolBin, ['check', 'config', join(prometheusDir, 'prometheus.yml')]).status).toBe(0);
    prometheus = spawn(
      prometheusBin,
      [
        `--config.file=${join(prometheusDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(prometheusDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let prometheusLog = '';
    prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    const alive = () => {
      if (prometheus!.exitCode !== null) throw new Error(`prometheus exited:\n${prometheusLog}`);
    };

    // Both targets scraped successfully (the token accepted) before anything is measured.
    await expectEventually(
      async () => {
        alive();
        expect(await promQuery('sum(up{job=~"trove-api|trove-worker"})')).toBe(2);
      },
      { timeoutMs: 60_000 },
    );
    const count = 'sum(trove_ingest_stage_duration_seconds_count{stage="embed"})';
    const indexed = 'sum(trove_ingest_documents_indexed_total)';
    const before = (await promQuery(count)) ?? 0;

    const upload = await stack.upload(projectId, 'lighthouse.md', `# The lighthouse\n\n${DOCUMENT_TEXT}\n`);
    expect(upload.status).toBe(202);
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');

    // Prometheus scrapes every second: poll its API until the worker's histogram has moved.
    await expectEventually(
      async () => {
        alive();
        expect((await promQuery(count)) ?? 0).toBeGreaterThan(before);
        expect(await promQuery(indexed)).toBeGreaterThanOrEqual(1);
      },
      { timeoutMs: 60_000 },
    );
  });
});

describe('logs and metrics keep secrets and documents to themselves', () => {
  it('after an upload, a search, an answer, webhooks and failing requests, no log line or metric holds a secret or the text', async () => {
    // Upload (the Prometheus story above uploaded one too) and search.
    const upload = await stack.upload(projectId, 'keeper.md', `# Keeper\n\n${DOCUMENT_TEXT}\n`);
    expect(upload.status).toBe(202);
    await stack.settled(upload.body.id as string);
    const traceId = randomUUID().replace(/-/g, '');
    const search = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: {
        'X-API-Key': ADMIN_KEY,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        'x-request-id': 'metrics-e2e-search',
      },
      body: JSON.stringify({
        query: 'query($i: SearchInput!) { search(input: $i) { hits { documentId } } }',
        variables: { i: { projectId, query: 'what does the keeper write down', mode: 'HYBRID' } },
      }),
    });
    expect(search.status).toBe(200);
    expect(search.headers.get('x-request-id')).toBe('metrics-e2e-search');
    const ask = await stack.gql('query($i: AskInput!) { ask(input: $i) { mode answer } }', {
      i: { projectId, question: 'What does the keeper log?', mode: 'LLM' },
    });
    expect(ask.errors).toBeUndefined();
    expect(llm.chatRequests.length).toBeGreaterThan(0);

    // A Notion source with its token; its webhook verified, refused once (bad signature), accepted once.
    const added = await stack.addSource({
      projectId,
      name: 'Wiki',
      type: 'NOTION',
      config: { token: NOTION_TOKEN },
    });
    const hook = `${stack.url}/webhooks/notion/${added.id}`;
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post(JSON.stringify({ verification_token: VERIFICATION_TOKEN }))).status).toBe(200);
    const event = JSON.stringify({
      id: randomUUID(),
      type: 'page.viewed',
      timestamp: new Date().toISOString(),
    });
    expect((await post(event, { 'x-notion-signature': 'sha256=forged' })).status).toBe(401);
    const signature = createHmac('sha256', VERIFICATION_TOKEN).update(event).digest('hex');
    expect((await post(event, { 'x-notion-signature': `sha256=${signature}` })).status).toBe(200);

    // Failing requests: a wrong key (as a bearer token), an unknown project, a forged link.
    expect(
      (await stack.gql('{ projects { id } }', {}, { Authorization: `Bearer ${NOTION_TOKEN}` })).errors,
    ).toBeDefined();
    expect((await stack.gql('query { project(id: "prj_nope") { id } }')).errors).toBeDefined();
    expect(
      (await fetch(`${stack.url}/v1/documents/${upload.body.id}/original?sig=${METRICS_TOKEN}`)).status,
    ).toBeGreaterThanOrEqual(400);

    // A broken PDF fails for good in the worker's parse activity: one warning line with the
    // workflow, run and activity, the code and no stack.
    const broken = await stack.upload(projectId, 'broken.pdf', `%PDF-1.7\n${'not a pdf '.repeat(400)}`);
    expect(broken.status).toBe(202);
    expect((await stack.settled(broken.body.id as string)).status).toBe('FAILED');
    const failure = await expectEventually(async () => {
      const line = readFileSync(join(stack.logDir, 'worker.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"activityType":"parseDocument"') && l.includes('Activity failed'))
        .map((l) => JSON.parse(l) as Record<string, unknown> & { error: Record<string, unknown> })[0];
      expect(line).toBeDefined();
      return line;
    });
    expect(failure).toMatchObject({
      level: 'warn',
      workflowId: expect.any(String),
      workflowRunId: expect.any(String),
      error: { code: 'CORRUPT_DOCUMENT', message: expect.stringContaining('broken.pdf') },
    });
    expect(failure.error.stack).toBeUndefined();
    expect(failure.taskToken).toBeUndefined();

    // The request lines are there, one per request, with the request id and the trace id.
    const apiLines = () => readFileSync(join(stack.logDir, 'api.log'), 'utf8').split('\n').filter(Boolean);
    const requestLine = await expectEventually(async () => {
      const line = apiLines()
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => (l.req as { id?: string } | undefined)?.id === 'metrics-e2e-search');
      expect(line).toBeDefined();
      return line!;
    });
    expect(requestLine).toMatchObject({
      level: 'info',
      traceId,
      req: { method: 'POST', path: '/graphql' },
      res: { statusCode: 200 },
    });
    // Every line of both apps is JSON.
    for (const file of readdirSync(stack.logDir)) {
      for (const line of readFileSync(join(stack.logDir, file), 'utf8').split('\n').filter(Boolean))
        expect(() => JSON.parse(line), `${file}: ${line}`).not.toThrow();
    }

    // What Prometheus would read now: the webhook, search and ask series moved.
    const apiMetrics = (await scrape(apiMetricsUrl())).text;
    const workerMetrics = (await scrape(stack.workerMetricsUrl())).text;
    expect(apiMetrics).toMatch(
      /trove_webhook_deliveries_total\{source_type="notion",outcome="accepted",code="none"\} [2-9]/,
    );
    expect(apiMetrics).toMatch(
      /trove_webhook_deliveries_total\{source_type="notion",outcome="refused",code="UNAUTHENTICATED"\} [1-9]/,
    );
    expect(apiMetrics).toMatch(/trove_search_duration_seconds_count\{mode="HYBRID",outcome="ok"\} [1-9]/);
    expect(apiMetrics).toMatch(
      /trove_ask_duration_seconds_count\{mode="LLM",transport="graphql",outcome="ok"\} 1/,
    );
    expect(apiMetrics).toMatch(
      /trove_llm_request_duration_seconds_count\{operation="(complete|stream)",outcome="ok"\} [1-9]/,
    );
    expect(workerMetrics).toMatch(
      /trove_embedder_request_duration_seconds_count\{purpose="passage",outcome="ok"\} [1-9]/,
    );
    // Each passage request waited its turn at the process's embedder queue (an import's: bulk).
    expect(workerMetrics).toMatch(/trove_embedder_queue_wait_seconds_count\{priority="bulk"\} [1-9]/);

    // Read at scrape time: slots, the queues' backlog from Temporal, sync runs and the pool from the catalog.
    expect(workerMetrics).toMatch(/trove_worker_activity_slots\{lane="bulk"\} 12\n/);
    expect(workerMetrics).toMatch(/trove_worker_activity_slots_used\{lane="bulk"\} \d+\n/);
    expect(workerMetrics).toMatch(/trove_task_queue_backlog\{lane="bulk",kind="activity"\} \d+\n/);
    expect(workerMetrics).toMatch(/trove_task_queue_backlog\{lane="control",kind="workflow"\} \d+\n/);
    expect(apiMetrics).toMatch(/trove_sync_runs\{state="RUNNING"\} \d+\n/);
    expect(apiMetrics).toMatch(/trove_sync_run_oldest_running_age_seconds \d+/);
    expect(apiMetrics).toMatch(/trove_catalog_pool_connections\{state="total"\} [1-9]/);

    // No secret, and not the document's text, in any log line or metric.
    const secrets = [METRICS_TOKEN, OPENAI_KEY, NOTION_TOKEN, VERIFICATION_TOKEN, ADMIN_KEY, DOCUMENT_TEXT];
    const fragments = [...secrets, DOCUMENT_TEXT.split(' ')[4]];
    const logs = readdirSync(stack.logDir).map((file) => ({
      where: file,
      text: readFileSync(join(stack.logDir, file), 'utf8'),
    }));
    for (const { where, text } of [
      ...logs,
      { where: 'api /metrics', text: apiMetrics },
      { where: 'worker /metrics', text: workerMetrics },
    ]) {
      for (const secret of fragments) expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
  });
});
