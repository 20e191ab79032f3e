import { Chunker, type ChunkContext, type ChunkerOptions, SegmenterTokenCounter } from '@trove/chunking';
import type { Chunk, ParsedDocument, ParseInput } from '@trove/domain';
import type { ParserRegistry } from '../parser-registry';

/** Chunking a document where it is parsed: the chunking settings and the document's ids. */
export interface ChunkJob {
  options: ChunkerOptions;
  context: ChunkContext;
}

/** A parsed document without its blocks: what the steps after chunking need of it. */
export type ParsedSummary = Omit<ParsedDocument, 'blocks'>;

/** A parsed document as JSON (the form it is stored in between the parse and chunk steps). */
export interface ParsedFile {
  json: Uint8Array;
  summary: ParsedSummary;
}

/** A document's chunks, with what the later steps need of the parsed document. */
export interface ChunkedFile {
  chunks: Chunk[];
  summary: ParsedSummary;
  /** Milliseconds spent chunking (of the call's time; the rest went into parsing and transfer). */
  chunkMs: number;
}

/** @internal What a parsing thread is asked to do with one document. */
export interface ParseRequest {
  fileName: string;
  mediaType: string;
  /** The file; or, with `parsed`, a parsed document as JSON. */
  data: Uint8Array;
  ocr?: boolean;
  /** `data` is a parsed document as JSON: it is chunked, not parsed. */
  parsed?: boolean;
  /** Chunk the document (after parsing it, unless `parsed`) with these settings. */
  chunk?: ChunkJob;
  /** Answer with the parsed document as JSON bytes instead of an object (to be stored as it is). */
  json?: boolean;
}

/** @internal What a parsing thread answers when the request succeeds. */
export interface ParseResult {
  document?: ParsedDocument;
  json?: Uint8Array;
  summary: ParsedSummary;
  chunks?: Chunk[];
  chunkMs?: number;
}

/**
 * Carries out a request: parse (or read the parsed JSON), then chunk when asked. `onChunking` is
 * told when chunking starts (the sandbox then holds it to the chunking time limit). Run by the
 * parsing threads; in-process by {@link InProcessParser}.
 */
export async function runDocumentSteps(
  registry: ParserRegistry,
  request: ParseRequest,
  onChunking: () => void = () => undefined,
): Promise<ParseResult> {
  const document: ParsedDocument = request.parsed
    ? (JSON.parse(new TextDecoder().decode(request.data)) as ParsedDocument)
    : await registry.parse({
        fileName: request.fileName,
        mediaType: request.mediaType,
        data: Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength),
        ...(request.ocr === false && { ocr: false }),
      });
  const summary: ParsedSummary & { blocks?: unknown } = { ...document };
  delete summary.blocks;
  if (request.json) return { json: new TextEncoder().encode(JSON.stringify(document)), summary };
  if (!request.chunk) return { document, summary };
  onChunking();
  const started = performance.now();
  const chunker = new Chunker(new SegmenterTokenCounter(), request.chunk.options);
  const chunks = chunker.chunk(document, request.chunk.context);
  return { summary, chunks, chunkMs: Math.round(performance.now() - started) };
}

/**
 * The parse sandbox's steps on the calling thread, without its limits: for tests and tools that
 * parse trusted files. The worker uses {@link ParseSandbox}.
 */
export class InProcessParser {
  constructor(private readonly registry: ParserRegistry) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    return (await runDocumentSteps(this.registry, request(input))).document!;
  }

  async parseToJson(input: ParseInput): Promise<ParsedFile> {
    const { json, summary } = await runDocumentSteps(this.registry, { ...request(input), json: true });
    return { json: json!, summary };
  }

  async chunk(parsed: { fileName: string; json: Uint8Array }, job: ChunkJob): Promise<ChunkedFile> {
    return chunked(
      await runDocumentSteps(this.registry, {
        fileName: parsed.fileName,
        mediaType: 'application/json',
        data: parsed.json,
        parsed: true,
        chunk: job,
      }),
    );
  }

  async parseAndChunk(input: ParseInput, job: ChunkJob): Promise<ChunkedFile> {
    return chunked(await runDocumentSteps(this.registry, { ...request(input), chunk: job }));
  }
}

/** The result of a request to chunk. */
export function chunked({ chunks, summary, chunkMs }: ParseResult): ChunkedFile {
  return { chunks: chunks!, summary, chunkMs: chunkMs ?? 0 };
}

function request(input: ParseInput): ParseRequest {
  return {
    fileName: input.fileName,
    mediaType: input.mediaType,
    data: input.data,
    ...(input.ocr === false && { ocr: false }),
  };
}
