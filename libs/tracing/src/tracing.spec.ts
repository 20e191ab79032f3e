import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSpan, troveAttributes, withSpan } from './spans';
import {
  insideClientSpan,
  samplerFromEnv,
  ScrubbingSpanProcessor,
  scrubbedUrl,
  traceFields,
  tracingConfigured,
} from './tracing';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  // What startTracing sets up, exporting to memory instead of OTLP.
  new NodeTracerProvider({
    spanProcessors: [new ScrubbingSpanProcessor(new SimpleSpanProcessor(exporter))],
  }).register();
});

afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

beforeEach(() => exporter.reset());

describe('tracingConfigured', () => {
  it('is on with an OTLP endpoint only, and off when the SDK or the exporter is turned off', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'none' })).toBe(
      false,
    );
  });
});

describe('troveAttributes', () => {
  it("takes an input's ids and nothing else", () => {
    expect(
      troveAttributes({
        projectId: 'prj_1',
        sourceId: 'src_1',
        documentId: 'doc_1',
        runId: 'run_1',
        text: 'the document text',
        token: 'ntn_secret',
      }),
    ).toEqual({
      'trove.project_id': 'prj_1',
      'trove.source_id': 'src_1',
      'trove.document_id': 'doc_1',
      'trove.run_id': 'run_1',
    });
    expect(troveAttributes({ documentIds: ['a', 'b', 3] })).toEqual({
      'trove.document_count': 2,
      'trove.document_ids': ['a', 'b'],
    });
    expect(troveAttributes('a string argument')).toEqual({});
    expect(troveAttributes(undefined)).toEqual({});
  });
});

describe('spans', () => {
  it('nests withSpan under the active span, and the logs see the inner one', async () => {
    let inner: ReturnType<typeof traceFields> = {};
    await withSpan('outer', { 'trove.stage': 'embed' }, () =>
      withSpan('inner', {}, async () => {
        inner = traceFields();
      }),
    );
    const [innerSpan, outerSpan] = exporter.getFinishedSpans();
    expect(innerSpan.name).toBe('inner');
    expect(innerSpan.parentSpanId).toBe(outerSpan.spanContext().spanId);
    expect(inner).toEqual({
      traceId: innerSpan.spanContext().traceId,
      spanId: innerSpan.spanContext().spanId,
    });
    expect(outerSpan.attributes).toEqual({ 'trove.stage': 'embed' });
    expect(traceFields()).toEqual({});
  });

  it("records a failure's code, not its message", async () => {
    const failure = new TroveError(TroveErrorCode.EmbeddingFailed, 'key sk-secret refused at http://x?k=1');
    await expect(withSpan('embed', {}, () => Promise.reject(failure))).rejects.toBe(failure);
    const span = openSpan('llm.complete', { 'trove.model': 'openai:m' });
    span.end(new Error('boom sk-secret'));
    const [embed, llm] = exporter.getFinishedSpans();
    expect(embed.status).toEqual({ code: 2, message: TroveErrorCode.EmbeddingFailed });
    expect(llm.status).toEqual({ code: 2, message: 'Error' });
    expect(JSON.stringify([embed.status, llm.status])).not.toContain('sk-secret');
  });

  it('exports URLs without their query or credentials', async () => {
    await withSpan(
      'GET',
      {
        'http.url': 'http://user:pass@api.example/v1/documents/d1/original?sig=secret',
        'http.target': '/v1/search?q=private+words',
        'url.full': 'https://es.internal:9200/_bulk?refresh=wait_for',
        'url.query': 'q=private',
      },
      async () => undefined,
    );
    const [span] = exporter.getFinishedSpans();
    expect(span.attributes).toEqual({
      'http.url': 'http://api.example/v1/documents/d1/original',
      'http.target': '/v1/search',
      'url.full': 'https://es.internal:9200/_bulk',
    });
    expect(scrubbedUrl('/plain/path')).toBe('/plain/path');
  });
});

describe('insideClientSpan', () => {
  it('is true in a client call of its own (Elasticsearch), not in a request, our own span or none', () => {
    const tracer = trace.getTracer('spec');
    expect(insideClientSpan()).toBe(false);
    for (const [kind, inside] of [
      [SpanKind.CLIENT, true],
      [SpanKind.INTERNAL, false],
      [SpanKind.SERVER, false],
    ] as const) {
      tracer.startActiveSpan('x', { kind }, (span) => {
        expect(insideClientSpan()).toBe(inside);
        span.end();
      });
    }
  });
});

describe('samplerFromEnv', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const sample = (env: NodeJS.ProcessEnv, kind: SpanKind, parent = false, name = 'x', remote = false) => {
    const active = parent
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId,
          spanId: '00f067aa0ba902b7',
          traceFlags: 1,
          isRemote: remote,
        })
      : ROOT_CONTEXT;
    return samplerFromEnv(env).shouldSample(active, traceId, name, kind, {}, []).decision;
  };

  it('starts traces at requests, never at a client call outside any trace', () => {
    expect(sample({}, SpanKind.SERVER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sample({}, SpanKind.INTERNAL)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sample({}, SpanKind.CLIENT)).toBe(SamplingDecision.NOT_RECORD);
    expect(sample({}, SpanKind.CLIENT, true)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it('never records a pool checkout, in a trace or not, whatever the sampler', () => {
    for (const env of [{}, { OTEL_TRACES_SAMPLER: 'always_on' }]) {
      for (const remote of [false, true])
        expect(sample(env, SpanKind.CLIENT, true, 'pg-pool.connect', remote)).toBe(
          SamplingDecision.NOT_RECORD,
        );
      expect(sample(env, SpanKind.CLIENT, true, 'pg.query:SELECT trove')).toBe(
        SamplingDecision.RECORD_AND_SAMPLED,
      );
    }
  });

  it('follows OTEL_TRACES_SAMPLER and its ratio, and refuses what it does not know', () => {
    const none = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    expect(sample(none, SpanKind.SERVER)).toBe(SamplingDecision.NOT_RECORD);
    // Parent-based: a sampled caller's trace is kept whatever the ratio.
    expect(sample(none, SpanKind.SERVER, true)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(sample({ OTEL_TRACES_SAMPLER: 'always_off' }, SpanKind.SERVER)).toBe(SamplingDecision.NOT_RECORD);
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/not one of/);
    expect(() =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(/between 0 and 1/);
  });
});
