import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { TroveApiError, apiErrorFrom } from './api-error';
import { streamAnswer, type AskStreamEvent, type AskStreamRequest } from './ask-stream';
import { exportFeedback, type FeedbackExport } from './feedback-export';
import type { TypedDocumentString } from './gql/graphql';
import { type OperationVariables, readJson, runOperation, type TroveOperations } from './graphql-request';

export interface TroveClientOptions {
  /** The api's base URL, e.g. http://127.0.0.1:3000 (no /graphql). */
  apiUrl: string;
  /** Sent as X-API-Key. */
  apiKey?: string;
  /**
   * A person's OAuth access token (after `trove login`) or personal token, sent as
   * `Authorization: Bearer`; asked for before each request, so it can be refreshed meanwhile.
   */
  bearer?: () => Promise<string | undefined>;
  /** Per request; 0 for none (default 120 s). */
  timeoutMs?: number;
  /** Named in the User-Agent header, e.g. `trove-cli/0.1.0`. */
  userAgent?: string;
}

export interface UploadedDocument {
  id: string;
  projectId: string;
  fileName: string;
  mediaType: string;
  sizeBytes: number;
  status: string;
}

/** Bytes sent so far out of the total, as an upload goes. */
export type UploadProgress = (sentBytes: number, totalBytes: number) => void;

/**
 * Trove's public API for programs: typed GraphQL operations (./operations) and the REST upload
 * route, with one error type whatever failed (TroveApiError: the API's code and message, or
 * NETWORK when the API cannot be reached).
 */
export class TroveClient implements TroveOperations {
  private readonly baseUrl: string;

  constructor(private readonly options: TroveClientOptions) {
    this.baseUrl = options.apiUrl.replace(/\/+$/, '');
  }

  get apiUrl(): string {
    return this.baseUrl;
  }

  /** Runs one typed operation against /graphql; throws TroveApiError on any error. */
  async request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    ...[variables]: OperationVariables<TVariables>
  ): Promise<TResult> {
    return runOperation(
      (body) =>
        this.send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      document,
      variables,
    );
  }

  /**
   * Uploads one file (`POST /v1/projects/:id/documents`, multipart field `file`), streaming it from
   * disk and reporting the bytes sent.
   */
  async uploadDocument(
    projectId: string,
    filePath: string,
    onProgress?: UploadProgress,
  ): Promise<UploadedDocument> {
    const { size } = await stat(filePath);
    const boundary = `----trove${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    const name = basename(filePath).replace(/[\r\n"]/g, '_');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"; filename*=UTF-8''${encodeURIComponent(basename(filePath))}\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    let sent = 0;
    async function* parts(): AsyncGenerator<Buffer> {
      yield head;
      for await (const chunk of createReadStream(filePath)) {
        const buffer = chunk as Buffer;
        sent += buffer.length;
        onProgress?.(sent, size);
        yield buffer;
      }
      yield tail;
    }
    const response = await this.send(`/v1/projects/${encodeURIComponent(projectId)}/documents`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
      body: Readable.toWeb(Readable.from(parts())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const body = await readJson(response);
    if (!response.ok || !body) throw apiErrorFrom(response.status, body);
    return body as UploadedDocument;
  }

  /**
   * A streamed answer (`POST /v1/projects/:id/ask/stream`): the retrieved passages, the answer's
   * text as it is written, then the verified result. A request refused before streaming (unknown
   * project, bad input) and an `error` event both throw TroveApiError. Offline the answer is
   * extractive, still sent as deltas.
   */
  askStream(
    projectId: string,
    request: AskStreamRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<AskStreamEvent> {
    return streamAnswer((path, init) => this.send(path, init), projectId, request, options);
  }

  /**
   * A project's feedback as training data (`GET /v1/projects/:id/feedback.jsonl`, ADMIN keys):
   * the number of votes, then each vote's line of JSON as it arrives.
   */
  exportFeedback(projectId: string, options: { signal?: AbortSignal } = {}): Promise<FeedbackExport> {
    return exportFeedback((path, init) => this.send(path, init), projectId, options);
  }

  /** A request with the key, a timeout, and network faults turned into TroveApiError(NETWORK). */
  async send(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.options.apiKey) headers.set('x-api-key', this.options.apiKey);
    else if (this.options.bearer) {
      const token = await this.options.bearer();
      if (token) headers.set('authorization', `Bearer ${token}`);
    }
    headers.set('user-agent', this.options.userAgent ?? 'trove-api-client');
    const timeoutMs = this.options.timeoutMs ?? 120_000;
    const signals = [init.signal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined].filter(
      (signal): signal is AbortSignal => Boolean(signal),
    );
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        ...init,
        headers,
        signal: signals.length ? AbortSignal.any(signals) : undefined,
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        throw new TroveApiError(`the API did not answer within ${timeoutMs} ms (${this.baseUrl})`, 'NETWORK');
      }
      if ((error as Error).name === 'AbortError') throw error;
      const cause =
        ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message) || 'error';
      throw new TroveApiError(`cannot reach the Trove API at ${this.baseUrl} (${cause})`, 'NETWORK');
    }
  }
}
