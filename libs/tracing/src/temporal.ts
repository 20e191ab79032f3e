import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  type OpenTelemetrySinks,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { annotateActiveSpan, TroveAttribute, troveAttributes } from './spans';
import { activeTracing, traceFields } from './tracing';

/**
 * The Temporal client's interceptors: starting or signalling a workflow puts the active trace
 * context into the workflow's headers. Empty while tracing is off.
 */
export function tracingClientInterceptors(): ClientInterceptors {
  return activeTracing() ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : {};
}

/**
 * Trove's ids on each activity's span (the span Temporal's interceptor opened from the
 * workflow's headers), and the trace and span ids on each line the activity logs: those of the
 * active span, or of the activity's own for the lines Temporal writes once it has returned
 * ("Activity failed").
 */
const troveActivitySpans: ActivityInterceptorsFactory = (context) => {
  let activitySpan: ReturnType<typeof traceFields> = {};
  return {
    inbound: {
      execute(input, next) {
        annotateActiveSpan({
          ...troveAttributes(input.args[0]),
          [TroveAttribute.stage]: context.info.activityType,
        });
        activitySpan = traceFields();
        return next(input);
      },
    },
    outbound: {
      getLogAttributes(input, next) {
        const active = traceFields();
        return next({ ...(active.traceId ? active : activitySpan), ...input });
      },
    },
  };
};

/** Temporal's workflow interceptors for OpenTelemetry: bundled with the workflow code. */
export const WORKFLOW_TRACING_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * What a worker adds for tracing: the workflow interceptors (bundled into the workflow code: a
 * workflow's span continues its starter's trace and its activities continue the workflow's), the
 * activity interceptors (a span per activity, Trove's ids on it, trace ids in activity logs), and
 * the sink through which the workflow sandbox hands its finished spans to this process's
 * exporter. Empty while tracing is off.
 */
export function workerTracing(): {
  interceptors: Pick<WorkerInterceptors, 'workflowModules' | 'activity'>;
  sinks: InjectedSinks<OpenTelemetrySinks> | Record<string, never>;
} {
  const tracing = activeTracing();
  if (!tracing) return { interceptors: {}, sinks: {} };
  return {
    interceptors: {
      workflowModules: [WORKFLOW_TRACING_MODULE],
      // Temporal's first: it opens the activity's span, which ours then annotates.
      activity: [
        (context) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(context) }),
        troveActivitySpans,
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}
