import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '@trove/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryValue } from '../support/canary';
import { JaegerServer, type JaegerSpan, type JaegerTrace, TraceView } from '../support/jaeger';
import { expectEventually } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Traces of the real api and worker, exported over OTLP to a real Jaeger and read back through
// its HTTP API: one upload is one trace from the api's request through Temporal (client, workflow,
// activities) to Elasticsearch and the embedder; a search is one trace with its Elasticsearch and
// embedder calls; no span carries a secret or the document's text.

const OPENAI_KEY = `sk-${canaryValue('openai-key')}`;
const NOTION_TOKEN = `ntn_${canaryValue('notion-token')}`;
const LINK_SIGNATURE = canaryValue('link-signature');
/** A sentence of the uploaded document that must never reach a span. */
const DOCUMENT_TEXT = `The lighthouse keeper logs ${canaryValue('document-text')} every night.`;

let jaeger: JaegerServer;
let jaegerBinary: string;
let llm: FakeOpenAiServer;
let stack: TroveStack;
let projectId: string;
/** The document the first story uploads. */
let uploadedId: string;

beforeAll(() => {
  // Built from the Go module proxy once (several minutes), then reused.
  jaegerBinary = JaegerServer.install();
}, 1_800_000);

beforeAll(async () => {
  jaeger = new JaegerServer();
  await jaeger.start(jaegerBinary);
  llm = await FakeOpenAiServer.start({ apiKey: OPENAI_KEY, models: ['fake-model'] });
  stack = new TroveStack({
    OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
    // Every trace kept; spans leave each process within a fraction of a second.
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    TROVE_LLM_PROVIDER: 'openai',
    TROVE_LLM_BASE_URL: llm.baseUrl,
    TROVE_LLM_MODEL: 'fake-model',
    TROVE_LLM_API_KEY: OPENAI_KEY,
    // Small uploads go through batches; the larger broken PDF below through its own activities.
    TROVE_SYNC_BATCH_MAX_BYTES: '2000',
  });
  await stack.start();
  projectId = await stack.createProject('Traces');
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await llm?.close();
  await jaeger?.stop();
});

/** The trace and span ids the api logged for the request it answered with `requestId`. */
async function requestTrace(
  requestId: string,
  of: TroveStack = stack,
): Promise<{ traceId: string; spanId: string }> {
  return expectEventually(async () => {
    const line = readFileSync(join(of.logDir, 'api.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => (l.req as { id?: string } | undefined)?.id === requestId && l.res);
    expect(line, `the request line of ${requestId}`).toBeDefined();
    expect(line!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(line!.spanId).toMatch(/^[0-9a-f]{16}$/);
    return { traceId: line!.traceId as string, spanId: line!.spanId as string };
  });
}

/** Polls Jaeger until `check` passes on the trace (spans arrive from two processes, in batches). */
async function traceWhen(traceId: string, check: (view: TraceView) => void): Promise<TraceView> {
  let last = '(no span yet)';
  try {
    return await expectEventually(
      async () => {
        const trace = await jaeger.trace(traceId);
        expect(trace, `trace ${traceId} in Jaeger`).toBeDefined();
        const view = new TraceView(trace!);
        last = view.outline();
        check(view);
        return view;
      },
      { timeoutMs: 60_000 },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\ntrace ${traceId} as Jaeger has it:\n${last}`);
  }
}

const isElasticsearch = (view: TraceView, span: JaegerSpan) =>
  view.tag(span, 'db.system') === 'elasticsearch';
const isPostgres = (view: TraceView, span: JaegerSpan) => view.tag(span, 'db.system') === 'postgresql';
/** An HTTP client span to the embedder (undici's or http's), under an `embed` span. */
const embedderCall = (view: TraceView, embed: JaegerSpan) =>
  view.spans.some((s) => view.parent(s)?.spanID === embed.spanID && /^(POST|GET)\b/.test(s.operationName));

describe('traces in a real Jaeger', () => {
  let uploadTraceId: string;

  it('one upload is one trace: the api request, the workflow, every activity, and their Elasticsearch, PostgreSQL and embedder calls', async () => {
    const upload = await stack.upload(projectId, 'lighthouse.md', `# The lighthouse\n\n${DOCUMENT_TEXT}\n`, {
      'X-API-Key': ADMIN_KEY,
      'x-request-id': 'traces-e2e-upload',
    });
    expect(upload.status).toBe(202);
    const documentId = upload.body.id as string;
    uploadedId = documentId;
    expect((await stack.settled(documentId)).status).toBe('READY');
    const { traceId, spanId } = await requestTrace('traces-e2e-upload');
    uploadTraceId = traceId;

    const view = await traceWhen(traceId, (v) => {
      // Every span of the trace has its id: nothing was split off into another trace.
      expect(v.spans.every((s) => s.traceID === traceId)).toBe(true);
      // The api's request span (the one its request line names), then Temporal's client span.
      const request = v.spans.find((s) => s.spanID === spanId);
      expect(request && v.service(request)).toBe('trove-api');
      const [start] = v.named('SignalWithStartWorkflow:ingestUploads');
      expect(start && v.descendsFrom(start, request!)).toBe(true);
      expect(v.spans.some((s) => v.service(s) === 'trove-api' && isPostgres(v, s))).toBe(true);
      // In the worker: the workflow's spans (it schedules each activity), each activity's span.
      for (const activity of ['pendingUploads', 'ingestBatch']) {
        const scheduled = v.named(`StartActivity:${activity}`);
        expect(scheduled.length, `StartActivity:${activity}`).toBeGreaterThan(0);
        expect(v.service(scheduled[0])).toBe('trove-worker');
        const ran = v.named(`RunActivity:${activity}`);
        expect(ran.length, `RunActivity:${activity}`).toBeGreaterThan(0);
        expect(scheduled.some((s) => v.parent(ran[0])?.spanID === s.spanID)).toBe(true);
      }
      // Under the batch activity: its stages, each with the calls that make it.
      const [batch] = v.named('RunActivity:ingestBatch');
      expect(v.tag(batch, 'trove.stage')).toBe('ingestBatch');
      expect(v.tag(batch, 'trove.document_count')).toBe(1);
      const under = (s: JaegerSpan) => v.descendsFrom(s, batch);
      const [prepare] = v.named('ingest.prepare').filter(under);
      expect(prepare, 'ingest.prepare').toBeDefined();
      expect(v.tag(prepare, 'trove.document_id')).toBe(documentId);
      expect(v.tag(prepare, 'trove.project_id')).toBe(projectId);
      const [embed] = v.named('embed').filter(under);
      expect(embed, 'embed under ingestBatch').toBeDefined();
      expect(v.tag(embed, 'trove.purpose')).toBe('passage');
      expect(v.tag(embed, 'trove.count')).toBeGreaterThan(0);
      expect(String(v.tag(embed, 'trove.model'))).not.toBe('');
      expect(embedderCall(v, embed), 'an HTTP call to the embedder under embed').toBe(true);
      expect(v.named('ingest.upsert').filter(under)).toHaveLength(1);
      expect(v.spans.filter((s) => under(s) && isElasticsearch(v, s)).map((s) => s.operationName)).toContain(
        'bulk',
      );
      expect(v.spans.some((s) => under(s) && isPostgres(v, s))).toBe(true);
    });
    // PostgreSQL spans carry statements, never their parameters (the ids and text bound to them).
    for (const span of view.spans.filter((s) => isPostgres(view, s)))
      expect(span.tags.map((t) => t.key)).not.toContain('db.postgresql.values');
  });

  it("a search is one trace with the api request, the query's embedding and the Elasticsearch search", async () => {
    const search = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: {
        'X-API-Key': ADMIN_KEY,
        'content-type': 'application/json',
        'x-request-id': 'traces-e2e-search',
      },
      body: JSON.stringify({
        query: 'query($i: SearchInput!) { search(input: $i) { hits { documentId } } }',
        variables: { i: { projectId, query: 'what does the keeper write down', mode: 'HYBRID' } },
      }),
    });
    expect(search.status).toBe(200);
    const { traceId, spanId } = await requestTrace('traces-e2e-search');
    expect(traceId).not.toBe(uploadTraceId);
    await traceWhen(traceId, (v) => {
      const request = v.spans.find((s) => s.spanID === spanId)!;
      expect(request).toBeDefined();
      expect(v.service(request)).toBe('trove-api');
      const [embed] = v.named('embed');
      expect(embed, 'embed').toBeDefined();
      expect(v.tag(embed, 'trove.purpose')).toBe('query');
      expect(v.descendsFrom(embed, request)).toBe(true);
      expect(embedderCall(v, embed), 'an HTTP call to the embedder under embed').toBe(true);
      const searches = v.spans.filter((s) => isElasticsearch(v, s) && /search/.test(s.operationName));
      expect(searches.length).toBeGreaterThan(0);
      expect(searches.every((s) => v.descendsFrom(s, request))).toBe(true);
      // The client's span is the call: no HTTP span repeats it underneath, no pool checkout either.
      const under = v.spans.filter((s) => searches.some((search) => v.parent(s)?.spanID === search.spanID));
      expect(under.map((s) => s.operationName)).toEqual([]);
      expect(v.named('pg-pool.connect')).toEqual([]);
    });
  });

  it("an activity's log lines carry the trace and span of the activity", async () => {
    // Large enough for its own per-document activities; it fails for good in parseDocument, which logs.
    const broken = await stack.upload(projectId, 'broken.pdf', `%PDF-1.7\n${'not a pdf '.repeat(400)}`);
    expect((await stack.settled(broken.body.id as string)).status).toBe('FAILED');
    const line = await expectEventually(async () => {
      const found = readFileSync(join(stack.logDir, 'worker.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"activityType":"parseDocument"') && l.includes('Activity failed'))
        .map((l) => JSON.parse(l) as { traceId?: string; spanId?: string })[0];
      expect(found).toBeDefined();
      return found;
    });
    expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
    await traceWhen(line.traceId!, (v) => {
      const span = v.spans.find((s) => s.spanID === line.spanId);
      expect(span?.operationName).toBe('RunActivity:parseDocument');
    });
  });

  it('an answer, a Notion source and a signed link later, no span anywhere holds a secret or the text', async () => {
    const ask = await stack.gql('query($i: AskInput!) { ask(input: $i) { mode answer } }', {
      i: { projectId, question: 'What does the keeper log?', mode: 'LLM' },
    });
    expect(ask.errors).toBeUndefined();
    expect(llm.chatRequests.length).toBeGreaterThan(0);
    await stack.addSource({ projectId, name: 'Wiki', type: 'NOTION', config: { token: NOTION_TOKEN } });
    const link = await fetch(`${stack.url}/v1/documents/${uploadedId}/original?sig=${LINK_SIGNATURE}`, {
      headers: { 'x-request-id': 'traces-e2e-link' },
    });
    expect(link.status).toBeGreaterThanOrEqual(400);
    // The answer's call to the LLM is a span with the model, and the link's request made it too.
    await expectEventually(
      async () => {
        const api = await jaeger.traces('trove-api');
        const spans = api.flatMap((t) => t.spans);
        expect(
          spans.some((s) => s.operationName === 'llm.complete' || s.operationName === 'llm.stream'),
        ).toBe(true);
        const { traceId } = await requestTrace('traces-e2e-link');
        expect(api.some((t) => t.traceID === traceId)).toBe(true);
      },
      { timeoutMs: 60_000 },
    );

    const traces: JaegerTrace[] = [
      ...(await jaeger.traces('trove-api')),
      ...(await jaeger.traces('trove-worker')),
    ];
    const text = JSON.stringify(traces);
    const planted = [
      OPENAI_KEY,
      NOTION_TOKEN,
      LINK_SIGNATURE,
      ADMIN_KEY,
      DOCUMENT_TEXT,
      DOCUMENT_TEXT.split(' ')[4],
      ...stack.canaries.map((c) => c.value),
    ];
    for (const secret of planted) expect(text.includes(secret), `${secret} in a span`).toBe(false);
    // Not a vacuous scan: the traces are there, with request paths in them.
    expect(text).toContain('/v1/documents/');
  });

  it("the api exports the spans it still holds when it stops, not only on the exporter's schedule", async () => {
    // A stack of this test's own whose exports are an hour apart: only the shutdown can send them.
    const quiet = new TroveStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_BSP_SCHEDULE_DELAY: '3600000',
    });
    let traceId: string;
    try {
      await quiet.start();
      const response = await fetch(`${quiet.url}/graphql`, {
        method: 'POST',
        headers: {
          'X-API-Key': ADMIN_KEY,
          'content-type': 'application/json',
          'x-request-id': 'traces-e2e-last',
        },
        body: JSON.stringify({ query: '{ projects { id } }' }),
      });
      expect(response.status).toBe(200);
      ({ traceId } = await requestTrace('traces-e2e-last', quiet));
      expect(await jaeger.trace(traceId), 'exported before the api stopped').toBeUndefined();
    } finally {
      await quiet.stop(); // SIGTERM, as an orchestrator stops it
    }
    await traceWhen(traceId, (v) => {
      expect(v.spans.some((s) => v.service(s) === 'trove-api' && /^POST\b/.test(s.operationName))).toBe(true);
    });
  });
});
