import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * What PostgreSQL refuses in text: NUL (no text type can hold it; in JSON the `\u0000` escape is
 * refused too) and UTF-16 surrogates without their pair (they have no UTF-8 form; in a text
 * parameter the driver would turn them into U+FFFD silently, in JSON PostgreSQL refuses the escape).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const REFUSED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const ANY_REFUSED = /\u0000|[\uD800-\uDFFF]/;

/**
 * Text PostgreSQL accepts: NUL and unpaired surrogates become U+FFFD (a visible mark where a
 * character was), everything else is kept. Clean text is returned as it is (the same string).
 */
export function postgresSafeText(text: string): string {
  if (!ANY_REFUSED.test(text)) return text;
  return text.replace(REFUSED, '\uFFFD');
}

/**
 * A parameter as PostgreSQL accepts it: strings made safe, and so are the strings (values and
 * keys) inside arrays and plain objects, which the driver sends as PostgreSQL arrays or JSON.
 * Anything else (numbers, dates, buffers, null) is passed as it is.
 */
export function postgresSafeValue<T>(value: T): T {
  if (typeof value === 'string') return postgresSafeText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => postgresSafeValue(item)) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [postgresSafeText(key), postgresSafeValue(item)]),
    ) as T;
  }
  return value;
}

/**
 * A value for a `jsonb` parameter: serialized after its strings were made safe (once serialized,
 * a NUL is the escape `\u0000`, which a text parameter may legitimately hold, so it cannot be told
 * apart later). Every JSON the catalog writes goes through here.
 */
export function jsonb(value: unknown): string {
  return JSON.stringify(postgresSafeValue(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The pool as Kysely sees it, every query's parameters made safe on their way to PostgreSQL: the
 * one place text is made safe for every column (errors, titles, names, warnings, comments, …),
 * whichever repository or statement writes it.
 */
export class PostgresSafeTextPool implements PostgresPool {
  /** One wrapper per pooled client: Kysely keeps its connection state per client object. */
  private readonly clients = new WeakMap<PostgresPoolClient, PostgresPoolClient>();

  constructor(private readonly pool: PostgresPool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let safe = this.clients.get(client);
    if (!safe) {
      safe = safeClient(client);
      this.clients.set(client, safe);
    }
    return safe;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

function safeClient(client: PostgresPoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Cursors (streamed reads) are not used by the catalog; passed through.
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor);
    return client.query<R>(sqlOrCursor, (parameters ?? []).map(postgresSafeValue));
  }
  return { query, release: () => client.release() };
}
