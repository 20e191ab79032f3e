import type { ApiConfig } from '@trove/config';
import { RAG_SCHEMA_DEFAULTS, type RagSettings } from '@trove/rag-config';

/** The environment's retrieval and answer settings: what an unset or reset setting is. */
export function ragDefaults(config: ApiConfig): RagSettings {
  const { fusion, rrfK, convexVectorWeight, convexNormalization } = config.search;
  return {
    search: { fusion, rrfK, convexVectorWeight, convexNormalization },
    rerank: config.rerank,
    llm: config.llm ?? RAG_SCHEMA_DEFAULTS.llm,
    answers: config.answers,
    chunking: config.chunking ?? RAG_SCHEMA_DEFAULTS.chunking,
  };
}
