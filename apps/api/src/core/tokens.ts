/** Dependency-injection tokens for the providers the API module builds from config. */
export const CONFIG = Symbol('CONFIG');
export const ELASTICSEARCH = Symbol('ELASTICSEARCH');
export const EMBEDDER = Symbol('EMBEDDER');
export const BLOBS = Symbol('BLOBS');
export const TEMPORAL = Symbol('TEMPORAL');
/**
 * The configured chat model (LlmProvider), or undefined: answers then use the fallback mode.
 * The lead wires `createLlmProvider(config)` from libs/llm here at merge; until then it is unset.
 */
export const LLM_PROVIDER = Symbol('LLM_PROVIDER');
