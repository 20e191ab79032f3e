import { startTracing } from '@trove/tracing';

// Imported first by main.ts; off unless an OTLP endpoint is configured (docs/operations.md, Traces).
startTracing('trove-worker');
