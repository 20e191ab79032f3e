import {
  APIErrorCode,
  Client,
  ClientErrorCode,
  isNotionClientError,
  extractNotionId,
} from '@notionhq/client';
import Bottleneck from 'bottleneck';
import { createHash } from 'node:crypto';
import { TroveError, TroveErrorCode } from '@trove/domain';

/** Databases contain data sources from this version on; the connector is written against it. */
export const NOTION_VERSION = '2025-09-03';

export interface NotionClientOptions {
  token: string;
  /** For the emulator in tests; Notion's own API otherwise. */
  baseUrl?: string;
  /** Average requests per second for this integration (Notion allows about 3). */
  requestsPerSecond?: number;
  timeoutMs?: number;
}

/** Counts what a sync costs: the number of Notion API requests. */
export interface RequestCounter {
  requests: number;
}

/**
 * The official client, paced below Notion's rate limit instead of only reacting to 429s; the
 * client itself retries 429/529 (honouring Retry-After) and transient 5xx with back-off.
 */
export function createNotionClient(
  options: NotionClientOptions,
  counter: RequestCounter = { requests: 0 },
): Client {
  const limiter = limiterFor(options.token, options.requestsPerSecond ?? 3);
  const pacedFetch: typeof fetch = (input, init) =>
    limiter.schedule(() => {
      counter.requests++;
      return fetch(input, init);
    });
  return new Client({
    auth: options.token,
    baseUrl: options.baseUrl,
    notionVersion: NOTION_VERSION,
    timeoutMs: options.timeoutMs ?? 60_000,
    fetch: pacedFetch,
    retry: { maxRetries: 5, initialRetryDelayMs: 1000, maxRetryDelayMs: 60_000 },
  });
}

/**
 * Notion's limit is per integration (token), so every client of one token in this process shares
 * one limiter: concurrent page ingests do not multiply the request rate. (Several worker processes
 * each pace themselves; the client's 429 handling covers the rest.)
 */
const limiters = new Map<string, Bottleneck>();

function limiterFor(token: string, requestsPerSecond: number): Bottleneck {
  const key = `${createHash('sha256').update(token).digest('hex')}:${requestsPerSecond}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new Bottleneck({ minTime: Math.ceil(1000 / requestsPerSecond), maxConcurrent: 3 });
    limiters.set(key, limiter);
  }
  return limiter;
}

/** A Notion page or database id from an id with or without dashes, or a Notion URL. */
export function normalizeNotionId(input: string): string {
  const id = extractNotionId(input.trim());
  if (!id)
    throw new TroveError(TroveErrorCode.BadRequest, `"${input}" is not a Notion page or database id or URL`);
  return id;
}

export type NotionFailure = 'skip' | 'unauthorized' | 'transient' | 'other';

/**
 * How a Notion error affects a sync: a missing, unshared or forbidden object is skipped; a
 * rejected token stops the run; rate limits and server faults (after the client's retries) are
 * transient.
 */
export function classifyNotionError(error: unknown): NotionFailure {
  if (!isNotionClientError(error)) return 'other';
  switch (error.code) {
    case APIErrorCode.ObjectNotFound:
    case APIErrorCode.RestrictedResource:
      return 'skip';
    case APIErrorCode.Unauthorized:
      return 'unauthorized';
    case APIErrorCode.RateLimited:
    case APIErrorCode.InternalServerError:
    case APIErrorCode.ServiceUnavailable:
    case ClientErrorCode.RequestTimeout:
      return 'transient';
    default:
      return 'other';
  }
}
