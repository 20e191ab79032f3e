import { type Attributes, type AttributeValue, SpanStatusCode, trace } from '@opentelemetry/api';

/** Trove's own spans (embed, complete, ingest stages); a no-op tracer while tracing is off. */
const tracer = () => trace.getTracer('trove');

/** Ids a span may carry: what a person looks a trace up by. Never text, never a secret. */
export const TroveAttribute = {
  projectId: 'trove.project_id',
  sourceId: 'trove.source_id',
  documentId: 'trove.document_id',
  documentIds: 'trove.document_ids',
  documentCount: 'trove.document_count',
  runId: 'trove.run_id',
  stage: 'trove.stage',
  model: 'trove.model',
  count: 'trove.count',
  purpose: 'trove.purpose',
} as const;

/** Ids listed on a batch's span at most; the count says how many there were. */
const MAX_LISTED_IDS = 50;

/**
 * The Trove ids in an activity's or a workflow's input (`projectId`, `sourceId`, `documentId`,
 * `runId`, `documentIds`) as span attributes. Only these fields are read, and only string ids:
 * nothing else of an input ever reaches a span.
 */
export function troveAttributes(input: unknown): Attributes {
  if (typeof input !== 'object' || input === null) return {};
  const fields = input as Record<string, unknown>;
  const attributes: Attributes = {};
  const id = (value: unknown): value is string => typeof value === 'string' && value.length <= 200;
  if (id(fields.projectId)) attributes[TroveAttribute.projectId] = fields.projectId;
  if (id(fields.sourceId)) attributes[TroveAttribute.sourceId] = fields.sourceId;
  if (id(fields.documentId)) attributes[TroveAttribute.documentId] = fields.documentId;
  if (id(fields.runId)) attributes[TroveAttribute.runId] = fields.runId;
  if (Array.isArray(fields.documentIds)) {
    const ids = fields.documentIds.filter(id);
    attributes[TroveAttribute.documentCount] = ids.length;
    attributes[TroveAttribute.documentIds] = ids.slice(0, MAX_LISTED_IDS);
  }
  return attributes;
}

/**
 * Runs `fn` in a new span (a child of the active one) named `name` with `attributes`; the span
 * records a failure's code or type (not its message, which may quote a URL or input) and ends
 * when `fn` settles.
 */
export async function withSpan<T>(
  name: string,
  attributes: Record<string, AttributeValue | undefined>,
  fn: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorLabel(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sets attributes on the active span, if there is one that records. */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** A failure as a span status: its Trove or Temporal code, else its type. */
function errorLabel(error: unknown): string {
  if (!(error instanceof Error)) return 'failed';
  const { code, type } = error as Error & { code?: unknown; type?: unknown };
  return typeof code === 'string' ? code : typeof type === 'string' ? type : error.name;
}

/**
 * A span for work that is not one function call (a stream of events): a child of the active
 * span, ended by the caller, with the failure's code or type when there was one.
 */
export function openSpan(name: string, attributes: Record<string, AttributeValue | undefined>) {
  const span = tracer().startSpan(name, { attributes });
  return {
    end(error?: unknown): void {
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: errorLabel(error) });
      span.end();
    },
  };
}
