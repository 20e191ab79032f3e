import { type Attributes, type Context, context, type Link, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  type Span,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** Probes and scrapes come every few seconds: a trace each would drown the requests that matter. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/** Span attributes that hold a URL or a path: kept without their query (signatures, search text) and credentials. */
const URL_ATTRIBUTES = ['http.url', 'http.target', 'url.full', 'url.path', 'db.connection_string'];
/** Span attributes dropped outright: a query string carries signatures and search text. */
const DROPPED_ATTRIBUTES = ['url.query'];

/** The tracing of a process, once started: its span processor (for Temporal's workflow spans), its resource. */
export interface Tracing {
  readonly serviceName: string;
  readonly processor: SpanProcessor;
  readonly resource: Resource;
  /** Exports what is still buffered and stops; call once, when the process ends. */
  shutdown(): Promise<void>;
}

let started: Tracing | undefined;

/**
 * Tracing is on when an OTLP endpoint is configured (the standard `OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and not turned off (`OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none`).
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/**
 * Starts the OpenTelemetry SDK when tracing is configured (see `tracingConfigured`), else does
 * nothing: spans then cost a no-op call. Must run before `http`, `pg` or `undici` users are
 * loaded (the first import of an app's main.ts), so the instrumentations see them. Sampling
 * follows `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` (default: parent-based, always on);
 * the endpoint, headers and timeouts follow the exporter's standard `OTEL_EXPORTER_OTLP_*`.
 * Neither headers nor bodies are recorded: no instrumentation is configured to, the PostgreSQL
 * spans carry statements without their parameters, and URLs lose their query and credentials.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (started || !tracingConfigured(env)) return started;
  const resource = Resource.default().merge(
    new Resource({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || serviceName }),
  );
  const sampler = samplerFromEnv(env);
  const processor = new ScrubbingSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter()));
  const provider = new NodeTracerProvider({ resource, sampler, spanProcessors: [processor] });
  // The AsyncLocalStorage context manager and the W3C trace-context and baggage propagators.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
        // A request made outside any trace (a start-up ping) is not a trace of its own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({
        requireParentforSpans: true,
        // The Elasticsearch client's own span of a request (operation, index, status) already is
        // the client call: the HTTP span undici would add under it says the same again.
        ignoreRequestHook: () => insideClientSpan(),
      }),
      // Statements without their parameters (document text, ids); no query outside a trace.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  started = {
    serviceName,
    processor,
    resource,
    shutdown: () => provider.shutdown(),
  };
  return started;
}

/** The active span is a client call's own (an Elasticsearch request's, made by its client). */
export function insideClientSpan(active: Context = context.active()): boolean {
  const span = trace.getSpan(active) as { kind?: SpanKind } | undefined;
  return span?.kind === SpanKind.CLIENT;
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/**
 * The sampler `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` name (default
 * `parentbased_always_on`), which never starts a trace at a client call (an Elasticsearch request
 * made outside any request or activity, such as start-up checks, is not a trace of its own) and
 * never records a span of `UNRECORDED_SPANS`. Throws on a value it does not know, rather than
 * tracing in a way nobody asked for.
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv = process.env): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  if (!SAMPLERS.includes(name))
    throw new Error(`OTEL_TRACES_SAMPLER "${name}" is not one of ${SAMPLERS.join(', ')}`);
  const argument = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = argument ? Number(argument) : 1;
  if (name.endsWith('traceidratio') && !(ratio >= 0 && ratio <= 1))
    throw new Error(`OTEL_TRACES_SAMPLER_ARG "${argument}" is not a ratio between 0 and 1`);
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  if (!name.startsWith('parentbased_')) return new TroveSampler(root);
  return new ParentBasedSampler({
    root: new TroveSampler(root),
    localParentSampled: new TroveSampler(new AlwaysOnSampler()),
    remoteParentSampled: new TroveSampler(new AlwaysOnSampler()),
  });
}

/**
 * Spans an instrumentation makes that say nothing a trace needs, at a cost on every request: a
 * checkout from the catalog's connection pool (four per search) is a map lookup unless the pool is
 * exhausted, which the `trove_catalog_pool_*` metrics show. The statements keep their spans.
 */
const UNRECORDED_SPANS = new Set(['pg-pool.connect']);

/**
 * Drops the spans of `UNRECORDED_SPANS` and any span that would start a trace at a client call;
 * every other span is left to `inner`.
 */
class TroveSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(
    active: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (UNRECORDED_SPANS.has(name)) return { decision: SamplingDecision.NOT_RECORD };
    if (kind === SpanKind.CLIENT && !trace.getSpanContext(active))
      return { decision: SamplingDecision.NOT_RECORD };
    return this.inner.shouldSample(active, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `Trove{${this.inner.toString()}}`;
  }
}

/** The tracing started in this process, if any. */
export function activeTracing(): Tracing | undefined {
  return started;
}

/**
 * Keeps secrets out of exported spans whatever an instrumentation recorded: URL attributes lose
 * their query string and user info, query attributes are dropped. Wraps the exporting processor.
 */
export class ScrubbingSpanProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    scrubAttributes(span.attributes);
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** Removes queries and credentials from URL-valued attributes, in place. */
export function scrubAttributes(attributes: ReadableSpan['attributes']): void {
  for (const key of DROPPED_ATTRIBUTES) delete attributes[key];
  for (const key of URL_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value === 'string') attributes[key] = scrubbedUrl(value);
  }
}

/** A URL or path without its query, fragment and user info. */
export function scrubbedUrl(value: string): string {
  const withoutQuery = value.split(/[?#]/)[0];
  return withoutQuery.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/**
 * The trace and span ids of the active span, for a log line (`{}` outside any trace). With
 * tracing off there is no active span.
 */
export function traceFields(active: Context = context.active()): { traceId?: string; spanId?: string } {
  const spanContext = trace.getSpanContext(active);
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
