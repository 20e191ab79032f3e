/**
 * What the development tools (tools/bench, tools/eval) reuse of the test support, as `@trove/test-support`:
 * the local services' addresses, the api + worker stack, private services, Jaeger, and the
 * retrieval gate's in-process ingest. Tests under test/ import the files directly.
 */
export * from './answer-eval';
export * from './distributed-scenario';
export * from './each-document-once';
export * from './embedder-stub';
// The browser helpers but signIn (identity-provider's signIn is the person's, at the provider).
export { chromiumPath, ensureDashboardBuild, fitsWidth, launchChromium, watchPage } from './browser';
export * from './identity-provider';
export * from './jaeger';
export * from './local-llm';
export * from './private-services';
export * from './retrieval-gate';
export * from './retrieval-index';
export * from './services';
export * from './sources';
export * from './stack';
export * from './object-store';
export * from './installed';
export * from './large-files';
export * from './temporal-settings';
