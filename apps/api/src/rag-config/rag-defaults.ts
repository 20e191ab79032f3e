import { type ApiConfig, llmSchema } from '@trove/config';
import type { RagSettings } from '@trove/rag-config';

/** The environment's retrieval and answer settings: what an unset or reset setting is. */
export function ragDefaults(config: ApiConfig): RagSettings {
  const { fusion, rrfK, convexVectorWeight, convexNormalization } = config.search;
  return {
    search: { fusion, rrfK, convexVectorWeight, convexNormalization },
    rerank: config.rerank,
    llm: config.llm ?? llmSchema.parse({}),
    answers: config.answers,
    chunking: config.chunking ?? { targetTokens: 400, overlapTokens: 50, minTokens: 40 },
  };
}
