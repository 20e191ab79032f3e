/** Interfaces of the providers Trove plugs in; implementations live in their own libs. */
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
}

export interface PutStreamOptions {
  /** Refuse streams longer than this. */
  maxBytes?: number;
  /** How many bytes of the start and of the end to keep for content sniffing (default 64 KiB). */
  sampleBytes?: number;
}

/** What was learnt while a stream was written: size, SHA-256 and samples for type detection. */
export interface StoredStream {
  sizeBytes: number;
  sha256: string;
  head: Buffer;
  tail: Buffer;
}

export type EmbeddingPurpose = 'query' | 'passage';

export interface EmbedOptions {
  /** Aborts the request to the embedding server (the caller no longer waits for it). */
  signal?: AbortSignal;
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
}

export interface Parser {
  readonly mediaTypes: readonly string[];
  parse(input: ParseInput): Promise<ParsedDocument>;
}
