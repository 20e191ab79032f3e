import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { describe, expect, it } from 'vitest';
import { jsonb, PostgresSafeTextPool, postgresSafeText, postgresSafeValue } from './postgres-text';

describe('postgresSafeText', () => {
  it('replaces NUL and unpaired surrogates with U+FFFD and keeps everything else', () => {
    expect(postgresSafeText('fatal: aborting\u0000 on the remote side')).toBe(
      'fatal: aborting\uFFFD on the remote side',
    );
    expect(postgresSafeText('high \uD83D alone, low \uDE00 alone')).toBe(
      'high \uFFFD alone, low \uFFFD alone',
    );
    // A pair is one character (an emoji), kept; so are tabs, line breaks and other controls.
    expect(postgresSafeText('ok \uD83D\uDE00\t\r\n\u0007')).toBe('ok \uD83D\uDE00\t\r\n\u0007');
  });

  it('returns clean text as the same string', () => {
    const text = 'Lighthouse handbook';
    expect(postgresSafeText(text)).toBe(text);
  });
});

describe('postgresSafeValue and jsonb', () => {
  it('reaches strings inside arrays and plain objects, keys too, and leaves other values alone', () => {
    const at = new Date(0);
    const bytes = Buffer.from([0]);
    expect(
      postgresSafeValue({ message: 'a\u0000b', list: ['\uDC00', 3, null], 'k\u0000': true, at, bytes }),
    ).toEqual({ message: 'a\uFFFDb', list: ['\uFFFD', 3, null], 'k\uFFFD': true, at, bytes });
  });

  it('serializes JSON without the escapes PostgreSQL refuses in jsonb', () => {
    const text = jsonb({ error: { message: 'stderr: \u0000 and \uD800' } });
    expect(text).not.toMatch(/\\u0000|\\ud800/i);
    expect(JSON.parse(text)).toEqual({ error: { message: 'stderr: \uFFFD and \uFFFD' } });
  });
});

/** A pooled client that records the parameters it is given. */
class RecordingClient implements PostgresPoolClient {
  readonly seen: unknown[][] = [];
  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return sqlOrCursor;
    this.seen.push([...(parameters ?? [])]);
    return Promise.resolve({ command: 'UPDATE', rowCount: 1, rows: [] });
  }
  release(): void {
    // Nothing is pooled here.
  }
}

describe('PostgresSafeTextPool', () => {
  it("makes every query's parameters safe and keeps one wrapper per pooled client", async () => {
    const client = new RecordingClient();
    const pool: PostgresPool = { connect: () => Promise.resolve(client), end: () => Promise.resolve() };
    const safe = new PostgresSafeTextPool(pool);
    const first = await safe.connect();
    await first.query('update sync_runs set error_message = $1 where id = $2', ['git said \u0000', 'run-1']);
    expect(client.seen).toEqual([['git said \uFFFD', 'run-1']]);
    expect(await safe.connect()).toBe(first);
  });
});
