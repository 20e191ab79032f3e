/** Interfaces of the providers Trove plugs in; implementations live in their own libs. */
import type { Readable } from 'node:stream';
import type { ParsedDocument } from './model';

export interface BlobStore {
  put(key: string, data: Buffer | string): Promise<void>;
  get(key: string): Promise<Buffer>;
  getJson<T>(key: string): Promise<T>;
  putJson(key: string, value: unknown): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Removes every blob whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Writes a stream without holding it in memory; the blob appears only when the stream ended
   * within `maxBytes` (otherwise PAYLOAD_TOO_LARGE and nothing is left behind).
   */
  putStream(key: string, data: NodeJS.ReadableStream, options?: PutStreamOptions): Promise<StoredStream>;
  /** Renames a blob (the target is replaced). */
  move(from: string, to: string): Promise<void>;
  /** Size and modification time of a blob; undefined when there is none. */
  stat(key: string): Promise<BlobStat | undefined>;
  /**
   * Reads a blob, or only the bytes `range` names, as a stream without holding it in memory.
   * Destroying the stream releases what it holds (an open file); a missing blob fails the stream.
   */
  getStream(key: string, range?: ByteRange): Readable;
  /**
   * Opens a blob for reads of byte ranges, without holding it in memory (archives are checked and
   * unpacked entry by entry through this). Close the reader when done.
   */
  openReader(key: string): Promise<BlobReader>;
}

export interface BlobStat {
  sizeBytes: number;
  modifiedAt: Date;
}

/** Bytes `start` to `end` of a blob, both inclusive and zero-based (as in HTTP ranges). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Random access to one blob: the file stays open until `close`. */
export interface BlobReader {
  /** The blob's size in bytes. */
  readonly size: number;
  /** Streams the bytes from `start` up to (not including) `end`. */
  readRange(start: number, end: number): Readable;
  /** Reads the bytes from `start` up to (not including) `end` at once: for small reads (headers). */
  read(start: number, end: number): Promise<Buffer>;
  close(): Promise<void>;
}

export interface PutStreamOptions {
  /** Refuse streams longer than this. */
  maxBytes?: number;
  /** How many bytes of the start and of the end to keep for content sniffing (default 64 KiB). */
  sampleBytes?: number;
  /** The stream's SHA-256 (hex) when the writer knows it: other bytes are refused, nothing is kept. */
  sha256?: string;
}

/** What was learnt while a stream was written: size, SHA-256 and samples for type detection. */
export interface StoredStream {
  sizeBytes: number;
  sha256: string;
  head: Buffer;
  tail: Buffer;
}

export type EmbeddingPurpose = 'query' | 'passage';

/** Who waits for an embedding: someone now (a query, a webhook edit), or an import. */
export type EmbeddingPriority = 'interactive' | 'bulk';

export interface EmbedOptions {
  /** Aborts the request to the embedding server (the caller no longer waits for it). */
  signal?: AbortSignal;
  /** Default: `interactive` for queries, `bulk` for passages. */
  priority?: EmbeddingPriority;
  /**
   * Within a priority, requests of older work go first (epoch ms, e.g. when the activity was first
   * scheduled): a batch's requests finish before a younger batch's, as with fewer slots. Default: now.
   */
  since?: number;
  /**
   * Whose work this is (a project id): waiting bulk requests of different tenants take turns, so
   * one project's import cannot hold the embedder for every other. Default: one shared turn.
   */
  tenant?: string;
}

export interface EmbeddingProvider {
  /** Model dimensions, known from the model profile. */
  readonly dimensions: number;
  readonly modelId: string;
  embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]>;
  /** Resolves when the embedding server answers; rejects with the reason otherwise. */
  ping(): Promise<void>;
}

export interface ParseInput {
  fileName: string;
  mediaType: string;
  data: Buffer;
  /** `false`: OCR is switched off (the project's setting); scans and images then fail. Default on. */
  ocr?: boolean;
}

export interface Parser {
  readonly mediaTypes: readonly string[];
  parse(input: ParseInput): Promise<ParsedDocument>;
}

/** One message of a chat with a language model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  messages: LlmMessage[];
  /** Overrides the configured temperature for this call. */
  temperature?: number;
  /** Overrides the configured limit of generated tokens for this call. */
  maxTokens?: number;
  /** Ask for a JSON object as the whole answer (providers that support it enforce it). */
  json?: boolean;
  /**
   * Ask for cited sentences: each ends with one or more of these passage markers (`[2]`,
   * `[1][3]`), or the whole reply is `refusal`. Providers that can constrain generation (the
   * local one) enforce it; the others are only told so by the prompt, and every answer is checked
   * afterwards either way.
   */
  citedSentences?: { markers: number[]; refusal: string };
  /** Aborts the call (the caller went away); the provider stops generating. */
  signal?: AbortSignal;
}

export interface LlmUsage {
  promptTokens?: number;
  completionTokens?: number;
}

export interface LlmCompletion {
  text: string;
  /** Why generation stopped: 'stop', 'length', … as the server said it. */
  finishReason?: string;
  usage?: LlmUsage;
}

/** Counts tokens as one model's own tokenizer does. */
export interface LlmTokenCounter {
  count(text: string): number;
}

/**
 * A chat model: behind an API (OpenAI-compatible, Ollama) or in this process (a local GGUF);
 * implementations live in libs/llm.
 */
export interface LlmProvider {
  /** e.g. 'openai:gpt-4o-mini', 'ollama:llama3.1:8b' or 'local:qwen2.5-coder-1.5b'. */
  readonly modelId: string;
  complete(request: LlmRequest): Promise<LlmCompletion>;
  /** Yields text deltas as they arrive; the last item of the iteration is the full completion. */
  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent>;
  /** Resolves when the server answers (a local model: once it is loaded); rejects with the reason otherwise. */
  ping(): Promise<void>;
  /**
   * The model's own token counter, where the provider has the tokenizer (a local model): prompts
   * are then budgeted in the model's tokens instead of an estimate.
   */
  tokenCounter?(): Promise<LlmTokenCounter>;
}

export type LlmStreamEvent = { type: 'delta'; text: string } | ({ type: 'done' } & LlmCompletion);

/** A candidate passage given to a reranker, with what search already knows about it. */
export interface RerankCandidate {
  /** The chunk id. */
  id: string;
  text: string;
  title: string;
  headingPath: string[];
  position: number;
  tokenCount?: number;
  language?: string;
  /** Legs and fusion as search ranked it (1-based ranks). */
  bm25?: { rank: number; score: number };
  knn?: { rank: number; score: number };
  fusedScore: number;
}

export interface RerankResult {
  /** Index into the candidates given. */
  index: number;
  score: number;
  /** The features that moved the score most (learned rerankers), for the explain view. */
  topFeatures?: { name: string; contribution: number }[];
}

/** Reorders search candidates; implementations live in libs/reranking. */
export interface Reranker {
  /** e.g. 'learned:v1', 'http:bge-reranker-v2-m3', 'llm:openai:gpt-4o-mini'. */
  readonly id: string;
  /** Scores of the candidates, best first (may return fewer than given, never an unknown index). */
  rerank(
    query: string,
    candidates: RerankCandidate[],
    options?: { signal?: AbortSignal },
  ): Promise<RerankResult[]>;
}
