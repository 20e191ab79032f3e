import {
  askStreamPath,
  type AskStreamEvent,
  type AskStreamEventData,
  type AskStreamRequest,
  TroveErrorCode,
} from '@trove/domain';
import { apiErrorFrom, TroveApiError } from './api-error';
import { readJson } from './graphql-request';

// How an answer's text marks its citations, for clients that render them.
export { CITATION_MARKER_GROUP, markerNumbers } from '@trove/domain';
export type {
  AskStreamCitation,
  AskStreamEvent,
  AskStreamPassage,
  AskStreamRequest,
  AskStreamResult,
} from '@trove/domain';

/** Sends a request to the API at `path` (the transport adds the base URL and the key). */
export type RestTransport = (path: string, init: RequestInit) => Promise<Response>;

/**
 * A streamed answer (`POST /v1/projects/:id/ask/stream`) over `send`: the retrieved passages, the
 * answer's text as it is written, then the verified result. A request refused before streaming
 * (unknown project, bad input, a refused key) and an `error` event both throw TroveApiError.
 * Shared by the Node client and the dashboard.
 */
export async function* streamAnswer(
  send: RestTransport,
  projectId: string,
  request: AskStreamRequest,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<AskStreamEvent> {
  const response = await send(askStreamPath(projectId), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(request),
    signal: options.signal,
  });
  if (!response.ok || !response.body) throw apiErrorFrom(response.status, await readJson(response));
  yield* readAskEvents(response.body);
}

/**
 * Reads a `text/event-stream` body into its events (`event:` name, `data:` JSON), as they arrive.
 * An `error` event becomes a TroveApiError with the API's code and message.
 */
export async function* readAskEvents(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<AskStreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of chunksOf(body)) {
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

/** A response body's chunks: through its reader, which every browser has (async iteration is newer). */
export async function* chunksOf(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (!('getReader' in body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
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
  const payload: unknown = JSON.parse(data.join('\n'));
  switch (name) {
    case 'retrieval': {
      const { passages, standaloneQuestion } = payload as AskStreamEventData['retrieval'];
      return { type: 'retrieval', passages, ...(standaloneQuestion !== undefined && { standaloneQuestion }) };
    }
    case 'delta': {
      const { text, attempt } = payload as Partial<AskStreamEventData['delta']>;
      return { type: 'delta', text: String(text ?? ''), attempt: Number(attempt ?? 1) };
    }
    case 'done':
      return { type: 'done', result: payload as AskStreamEventData['done'] };
    case 'error': {
      const { code, message } = payload as Partial<AskStreamEventData['error']>;
      throw new TroveApiError(
        String(message ?? 'the answer failed'),
        String(code ?? TroveErrorCode.Internal),
      );
    }
    default:
      return undefined;
  }
}
