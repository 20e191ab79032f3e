import { FEEDBACK_EXPORT_COUNT_HEADER, feedbackExportPath } from '@trove/domain';
import { apiErrorFrom, TroveApiError } from './api-error';
import { chunksOf, type RestTransport } from './ask-stream';
import { readJson } from './graphql-request';

export type { FeedbackExportLine } from '@trove/domain';

/** A project's feedback export as it arrives: how many votes it holds, then its lines. */
export interface FeedbackExport {
  count: number;
  /** Each vote's line of JSON (a `FeedbackExportLine`), without the line break. */
  lines: AsyncGenerator<string>;
}

/**
 * The feedback export (`GET /v1/projects/:id/feedback.jsonl`, ADMIN keys) over `send`. A refused
 * request throws TroveApiError; so does a download the API broke off (it cuts the connection
 * rather than end a partial export cleanly). The count is the votes when the export began.
 */
export async function exportFeedback(
  send: RestTransport,
  projectId: string,
  options: { signal?: AbortSignal } = {},
): Promise<FeedbackExport> {
  const response = await send(feedbackExportPath(projectId), {
    method: 'GET',
    headers: { accept: 'application/x-ndjson' },
    signal: options.signal,
  });
  if (!response.ok || !response.body) throw apiErrorFrom(response.status, await readJson(response));
  const count = Number(response.headers.get(FEEDBACK_EXPORT_COUNT_HEADER) ?? Number.NaN);
  const body = response.body;
  async function* lines(): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    let buffer = '';
    let read = 0;
    try {
      for await (const bytes of chunksOf(body)) {
        buffer += decoder.decode(bytes, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (!line.trim()) continue;
          read += 1;
          yield line;
        }
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new TroveApiError(`the feedback export broke off after ${read} votes`, 'NETWORK');
    }
    const rest = (buffer + decoder.decode()).trim();
    if (rest) yield rest;
  }
  return { count: Number.isFinite(count) ? count : 0, lines: lines() };
}
