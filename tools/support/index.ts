/** What the development tools share (`@trove/tools-support`); nothing in the product may import it. */
export * from './benchmarks-file';
export * from './datasets';
export * from './ingest-files';
export * from './local-worker-config';
export * from './same-run-latency';
export * from './benchmark-commands';
