/** Generation defaults and limits shared by every provider (from TROVE_LLM_*). */
export interface LlmSettings {
  model: string;
  /** Used when a request gives none. */
  temperature: number;
  /** Used when a request gives none. */
  maxTokens: number;
  /** The whole call, retries and every streamed token included. */
  timeoutMs: number;
  /** Streams: the longest wait for the first token and between two tokens. */
  idleTimeoutMs: number;
  /** Further attempts after a transient fault, only before the first token was delivered. */
  retries: number;
  /** Wait before retry `n` (0-based); exponential with jitter by default. */
  backoffMs?: (retry: number) => number;
}
