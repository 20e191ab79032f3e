import { TroveApiError } from './api-error';

/** The body of `POST /v1/projects/:projectId/ask/stream` (AskInput without projectId). */
export interface AskStreamRequest {
  question: string;
  topK?: number;
  threshold?: number;
  mode?: 'AUTO' | 'LLM' | 'EXTRACTIVE' | 'TOP_1';
  search?: {
    mode?: 'HYBRID' | 'KEYWORD' | 'VECTOR';
    filters?: { sourceIds?: string[]; documentIds?: string[]; languages?: string[]; hasCode?: boolean };
  };
}

/** A passage the answer may cite, as the `retrieval` event lists it. */
export interface AskStreamPassage {
  marker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  text: string;
  citationUrl?: string;
  relevance: number;
  score: number;
  truncated: boolean;
}

/** The verified answer the `done` event carries (the same fields as GraphQL `ask`). */
export interface AskStreamResult {
  answer: string;
  mode: string;
  insufficientContext: boolean;
  language: string;
  promptId?: string;
  model?: string;
  citations: {
    marker: number;
    chunkId: string;
    documentId: string;
    title: string;
    headingPath: string[];
    citationUrl?: string | null;
    quote: string;
  }[];
  verification: Record<string, unknown>;
  timings: Record<string, number | null | undefined>;
}

/** One Server-Sent Event of a streamed answer, in order: retrieval, delta…, done. */
export type AskStreamEvent =
  | { type: 'retrieval'; passages: AskStreamPassage[] }
  /** `attempt` 2 starts the text over (a retry after invalid citations). */
  | { type: 'delta'; text: string; attempt: number }
  | { type: 'done'; result: AskStreamResult };

/**
 * Reads a `text/event-stream` body into its events (`event:` name, `data:` JSON), as they arrive.
 * An `error` event becomes a TroveApiError with the API's code and message.
 */
export async function* readAskEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<AskStreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event) yield event;
    }
  }
  const rest = parseBlock(buffer + decoder.decode());
  if (rest) yield rest;
}

function parseBlock(block: string): AskStreamEvent | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length) return undefined;
  const payload = JSON.parse(data.join('\n')) as Record<string, unknown>;
  switch (name) {
    case 'retrieval':
      return { type: 'retrieval', passages: payload.passages as AskStreamPassage[] };
    case 'delta':
      return { type: 'delta', text: String(payload.text ?? ''), attempt: Number(payload.attempt ?? 1) };
    case 'done':
      return { type: 'done', result: payload as unknown as AskStreamResult };
    case 'error':
      throw new TroveApiError(
        String(payload.message ?? 'the answer failed'),
        String(payload.code ?? 'INTERNAL'),
      );
    default:
      return undefined;
  }
}
