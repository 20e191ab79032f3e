/** Dependency-injection tokens for the providers the API module builds from config. */
export const CONFIG = Symbol('CONFIG');
/** What the api builds as the worker does (`CoreServices`, @trove/composition): the RAG settings store. */
export const CORE_SERVICES = Symbol('CORE_SERVICES');
/**
 * The `SecretBox` (TROVE_SECRET_KEY) that seals and opens stored secrets, built once by the
 * composition root; undefined when no key is configured.
 */
export const SECRETS = Symbol('SECRETS');
export const ELASTICSEARCH = Symbol('ELASTICSEARCH');
export const EMBEDDER = Symbol('EMBEDDER');
export const BLOBS = Symbol('BLOBS');
/** Temporal, through the api's workflow ports (`Workflows`, core/workflows.ts). */
export const WORKFLOWS = Symbol('WORKFLOWS');
/** Every source type's definition (@trove/source-definitions), built from config at start-up. */
export const SOURCE_DEFINITIONS = Symbol('SOURCE_DEFINITIONS');
/** Search with the current RAG settings, as the `Searcher` port (rag-config/rag-runtime.ts). */
export const SEARCHER = Symbol('SEARCHER');
/** Answers with the current RAG settings, as the `Asker` port (rag-config/rag-runtime.ts). */
export const ASKER = Symbol('ASKER');
