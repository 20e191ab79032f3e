import { startTracing } from '@trove/tracing';

// Imported first by main.ts; off unless an OTLP endpoint is configured (docs/operations.md, Traces).
try {
  startTracing('trove-api');
} catch (error) {
  console.error('[trove-api] fatal:', error instanceof Error ? error.message : error);
  process.exit(2);
}
