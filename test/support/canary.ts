import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import pg from 'pg';
import { createElasticsearchClient } from '@trove/search';
import { type DataServices, schemaName, SHARED_DATA_SERVICES, TEMPORAL_ADDRESS } from './services';

/**
 * Canaries: random values planted where an attacker would like to read (the api's and the worker's
 * environment, their secrets, the blob folder). None of them may ever reach a client, a log, the
 * catalog, the chunk index or a Temporal history; `scanForCanaries` and `watchResponses` look.
 */
export interface Canary {
  /** Names the canary in a finding, e.g. `api env TROVE_CANARY_ENV`. */
  label: string;
  value: string;
}

export interface CanaryFinding {
  canary: string;
  /** Where it was found, e.g. `worker.log`, `catalog sync_runs`, `chunk index t-e2e-…-chunks-1`. */
  where: string;
  /** The text around it, the canary itself replaced by its label. */
  excerpt: string;
}

export class CanaryLeakError extends Error {
  constructor(readonly findings: CanaryFinding[]) {
    const seen = new Map<string, { finding: CanaryFinding; times: number }>();
    for (const finding of findings) {
      const key = `${finding.canary} in ${finding.where}`;
      const entry = seen.get(key);
      if (entry) entry.times += 1;
      else seen.set(key, { finding, times: 1 });
    }
    super(
      `canary leak: ${findings.length} finding(s)\n` +
        [...seen]
          .map(
            ([key, { finding, times }]) =>
              `  - ${key}${times > 1 ? ` (${times} times)` : ''}: …${finding.excerpt}…`,
          )
          .join('\n'),
    );
    this.name = 'CanaryLeakError';
  }
}

/** A fresh canary value: long, random, and plain ASCII so every encoding we scan keeps it intact. */
export function canaryValue(label: string): string {
  return `canary-${label}-${randomBytes(12).toString('hex')}`;
}

/** Every canary found in `text`, once each, with a short excerpt. */
export function findCanaries(text: string, canaries: readonly Canary[], where: string): CanaryFinding[] {
  const findings: CanaryFinding[] = [];
  for (const canary of canaries) {
    const at = text.indexOf(canary.value);
    if (at < 0) continue;
    const around = text.slice(Math.max(0, at - 80), at + canary.value.length + 80);
    findings.push({
      canary: canary.label,
      where,
      excerpt: around.split(canary.value).join(`«${canary.label}»`).replace(/\s+/g, ' '),
    });
  }
  return findings;
}

/** The api's and the worker's log files (every file in the stack's log folder). */
export function scanLogs(logDir: string, canaries: readonly Canary[]): CanaryFinding[] {
  return readdirSync(logDir)
    .filter((file) => statSync(join(logDir, file)).isFile())
    .flatMap((file) => findCanaries(readFileSync(join(logDir, file), 'utf8'), canaries, `log ${file}`));
}

/**
 * Every row of every table in the stack's catalog schema (sync runs and their errors, documents and
 * their warnings, sources, configs…), matched inside PostgreSQL so nothing large crosses the wire.
 */
export async function scanCatalog(
  name: string,
  canaries: readonly Canary[],
  databaseUrl = SHARED_DATA_SERVICES.databaseUrl,
): Promise<CanaryFinding[]> {
  const schema = schemaName(name);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
      [schema],
    );
    const findings: CanaryFinding[] = [];
    for (const { table_name: table } of tables.rows) {
      const hits = await db.query<{ label: string; excerpt: string }>(
        `select c.label, (select substr(r::text, greatest(strpos(r::text, c.value) - 80, 1), length(c.value) + 160)
                            from "${schema}"."${table}" r where strpos(r::text, c.value) > 0 limit 1) as excerpt
           from unnest($1::text[], $2::text[]) as c(label, value)`,
        [canaries.map((c) => c.label), canaries.map((c) => c.value)],
      );
      for (const hit of hits.rows) {
        if (hit.excerpt !== null)
          findings.push(...findCanaries(hit.excerpt, canaries, `catalog table ${table}`));
      }
    }
    return findings;
  } finally {
    await db.end();
  }
}

/**
 * The `_source` of every document in the stack's indices (chunks, and whatever else is indexed),
 * compared as exact strings: a random token is not reliably found through the analysers.
 */
export async function scanIndices(
  name: string,
  canaries: readonly Canary[],
  esUrl = SHARED_DATA_SERVICES.esUrl,
): Promise<CanaryFinding[]> {
  const es = createElasticsearchClient(esUrl);
  try {
    const index = `${name}-*`;
    await es.indices.refresh({ index, ignore_unavailable: true, allow_no_indices: true });
    const findings = new Map<string, CanaryFinding>();
    const scroll = es.helpers.scrollSearch({
      index,
      ignore_unavailable: true,
      allow_no_indices: true,
      size: 1000,
      sort: ['_doc'],
      // The vectors are numbers; skipping them keeps the scan cheap.
      _source_excludes: ['embedding'],
      query: { match_all: {} },
    });
    for await (const page of scroll) {
      for (const hit of page.body.hits.hits) {
        for (const finding of findCanaries(JSON.stringify(hit._source), canaries, `index ${hit._index}`)) {
          findings.set(`${finding.canary} ${finding.where}`, finding);
        }
      }
    }
    return [...findings.values()];
  } finally {
    await es.close();
  }
}

/**
 * Every string of a history, payload bytes decoded: `JSON.stringify` would print them in base64
 * (protobuf's and Buffer's `toJSON`), where no canary can be read.
 */
function historyText(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (Array.isArray(value)) for (const item of value) historyText(item, out);
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) historyText((value as Record<string, unknown>)[key], out);
  return out;
}

/**
 * The history of every workflow that ran on the stack's task queue (inputs, results, failures,
 * activity payloads, memos).
 */
export async function scanTemporal(
  taskQueue: string,
  canaries: readonly Canary[],
  address = TEMPORAL_ADDRESS,
): Promise<CanaryFinding[]> {
  const connection = await Connection.connect({ address });
  try {
    const client = new TemporalClient({ connection });
    const findings = new Map<string, CanaryFinding>();
    const histories = client.workflow
      .list({ query: `TaskQueue="${taskQueue}"` })
      .intoHistories({ concurrency: 8 });
    for await (const { workflowId, history } of histories) {
      const text = historyText(history).join('\n');
      for (const finding of findCanaries(text, canaries, `Temporal history of ${workflowId}`)) {
        findings.set(`${finding.canary} ${finding.where}`, finding);
      }
    }
    return [...findings.values()];
  } finally {
    await connection.close();
  }
}

/**
 * Everything a stack kept: logs, catalog, indices (in the stack's own data services) and Temporal
 * histories. Run it before the data is dropped.
 */
export async function scanForCanaries(
  stack: { name: string; logDir: string; services: DataServices },
  canaries: readonly Canary[],
): Promise<CanaryFinding[]> {
  const [catalog, indices, temporal] = await Promise.all([
    scanCatalog(stack.name, canaries, stack.services.databaseUrl),
    scanIndices(stack.name, canaries, stack.services.esUrl),
    scanTemporal(stack.name, canaries, stack.services.temporalAddress),
  ]);
  return [...scanLogs(stack.logDir, canaries), ...catalog, ...indices, ...temporal];
}

/** Who wants to see the responses of one server: its address, canaries, and what to do with a finding. */
export interface ResponseWatcher {
  /** Whether a response from `url` is this watcher's. */
  owns(url: URL): boolean;
  canaries: readonly Canary[];
  /** Called with every finding before the response (or its stream) fails. */
  record(finding: CanaryFinding): void;
}

interface FetchGuard {
  original: typeof fetch;
  watchers: Set<ResponseWatcher>;
}

// On globalThis, not in this module: test files share one process and each evaluates its own copy.
const GUARD = Symbol.for('trove.e2e.canaryFetchGuard');
type GuardedGlobal = typeof globalThis & { [GUARD]?: FetchGuard };

/** Streams a test reads as they arrive; every other body is read whole and checked before fetch returns. */
const STREAMED = /^(text\/event-stream|application\/x-ndjson)/i;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function requestLabel(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
  url: URL,
): string {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  return `${method.toUpperCase()} ${url.pathname}`;
}

function fail(watcher: ResponseWatcher, findings: CanaryFinding[]): CanaryLeakError {
  for (const finding of findings) watcher.record(finding);
  return new CanaryLeakError(findings);
}

/** A copy of the response whose stream fails on the first canary (carried over chunk boundaries). */
function streamChecked(response: Response, watcher: ResponseWatcher, where: string): Response {
  const keep = Math.max(...watcher.canaries.map((c) => c.value.length));
  let tail = '';
  const check = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const text = tail + Buffer.from(chunk).toString('utf8');
      const findings = findCanaries(text, watcher.canaries, where);
      if (findings.length) {
        controller.error(fail(watcher, findings));
        return;
      }
      tail = text.slice(-keep);
      controller.enqueue(chunk);
    },
  });
  return withMeta(new Response(response.body!.pipeThrough(check), response), response);
}

function withMeta(copy: Response, original: Response): Response {
  Object.defineProperty(copy, 'url', { value: original.url });
  Object.defineProperty(copy, 'redirected', { value: original.redirected });
  return copy;
}

async function checkedFetch(
  guard: FetchGuard,
  input: Parameters<typeof fetch>[0],
  init?: Parameters<typeof fetch>[1],
): Promise<Response> {
  const response = await guard.original(input, init);
  const url = new URL(response.url || (input instanceof Request ? input.url : String(input)));
  const watcher = [...guard.watchers].find((w) => w.owns(url));
  if (!watcher) return response;
  const where = `the response to ${requestLabel(input, init, url)}`;
  const headers = [...response.headers].map(([key, value]) => `${key}: ${value}`).join('\n');
  const headerFindings = findCanaries(headers, watcher.canaries, `${where} (headers)`);
  if (headerFindings.length) throw fail(watcher, headerFindings);
  if (!response.body) return response;
  if (STREAMED.test(response.headers.get('content-type') ?? ''))
    return streamChecked(response, watcher, where);
  const body = Buffer.from(await response.arrayBuffer());
  const bodyFindings = findCanaries(body.toString('utf8'), watcher.canaries, `${where} (body)`);
  if (bodyFindings.length) throw fail(watcher, bodyFindings);
  const init2 = { status: response.status, statusText: response.statusText, headers: response.headers };
  return withMeta(new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, init2), response);
}

/**
 * Checks every response `fetch` gets from the watcher's server, whoever calls fetch (the stack's
 * helpers and the tests' own raw fetches alike): a canary in a header or body throws a
 * `CanaryLeakError` there, and is recorded. Returns the function that stops watching.
 */
export function watchResponses(watcher: ResponseWatcher): () => void {
  const global = globalThis as GuardedGlobal;
  if (!global[GUARD]) {
    const guard: FetchGuard = { original: globalThis.fetch, watchers: new Set() };
    global[GUARD] = guard;
    globalThis.fetch = (input, init) => checkedFetch(guard, input, init);
  }
  const guard = global[GUARD];
  guard.watchers.add(watcher);
  return () => {
    guard.watchers.delete(watcher);
    if (guard.watchers.size === 0 && global[GUARD] === guard) {
      globalThis.fetch = guard.original;
      delete global[GUARD];
    }
  };
}
