import { DEFAULT_TOKEN } from './default-workspace';
import { NOTION_VERSION } from './emulator';

/** Parsed JSON from the emulator; specs read it the way a client would, without the SDK's types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
}

/** A bare `fetch` client with Notion's headers, so the specs check the wire contract, not an SDK. */
export function apiClient(baseUrl: string, token = DEFAULT_TOKEN) {
  const request = async (
    method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
    path: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ): Promise<ApiResponse> => {
    const merged: Record<string, string> = {};
    const all = { authorization: `Bearer ${token}`, 'notion-version': NOTION_VERSION, ...headers };
    for (const [key, value] of Object.entries(all)) if (value !== undefined) merged[key] = value;
    if (body !== undefined) merged['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: merged,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  return {
    request,
    get: (path: string) => request('GET', path),
    post: (path: string, body: unknown = {}) => request('POST', path, body),
    /** Every child block of a page or block, following cursors. */
    async children(id: string, pageSize = 100): Promise<Json[]> {
      const out: Json[] = [];
      let cursor: string | null = null;
      do {
        const query = `page_size=${pageSize}${cursor ? `&start_cursor=${cursor}` : ''}`;
        const { status, body } = await request('GET', `/v1/blocks/${id}/children?${query}`);
        if (status !== 200) throw new Error(`children of ${id}: ${status} ${JSON.stringify(body)}`);
        out.push(...body.results);
        cursor = body.next_cursor;
      } while (cursor);
      return out;
    },
    /** Every result of a POST list endpoint (search, data source query), following cursors. */
    async collect(path: string, body: Record<string, unknown> = {}): Promise<Json[]> {
      const out: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await request('POST', path, { ...body, ...(cursor ? { start_cursor: cursor } : {}) });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
        out.push(...res.body.results);
        cursor = res.body.next_cursor;
      } while (cursor);
      return out;
    },
  };
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MINUTE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/;
