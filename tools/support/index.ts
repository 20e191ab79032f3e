/** What the development tools share (`@trove/tools-support`); nothing in the product may import it. */
export * from './benchmark-commands';
export * from './benchmarks-file';
export * from './benchmarks-stale';
export * from './datasets';
export * from './embedding-cache';
export * from './ingest-files';
export * from './local-worker-config';
export * from './same-run-latency';
