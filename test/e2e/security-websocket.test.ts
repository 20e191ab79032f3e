import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/services';
import { TroveStack } from '../support/stack';

// GraphQL over WebSocket (graphql-transport-ws on /graphql) gets the guards HTTP has: every
// operation authenticated against the key's current state and counted in its rate limit, the
// same query limits, subscriptions only (capped per socket and per key), and failed
// connection_inits counted against the address like failed HTTP authentications.
const LIMIT = 40;
const PER_SOCKET = 3;
const PER_KEY = 5;
const stack = new TroveStack({
  TROVE_FOLDER_ROOTS: join(ROOT, 'samples'),
  TROVE_RATE_LIMIT_REQUESTS: String(LIMIT),
  TROVE_RATE_LIMIT_WINDOW_SECONDS: '60',
  TROVE_SUBSCRIPTIONS_PER_CONNECTION: String(PER_SOCKET),
  TROVE_SUBSCRIPTIONS_PER_KEY: String(PER_KEY),
});
let projectId: string;
/** A sync run that stays RUNNING (no worker) until afterAll: subscriptions to it stay open. */
let runId: string;

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('WebSocket');
  const source = await stack.addSource({
    projectId,
    name: 'Handbook',
    type: 'FOLDER',
    config: { path: join(ROOT, 'samples', 'handbook-site') },
  });
  await stack.killWorker();
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
    { id: source.id },
  );
  runId = syncSource.id;
});
afterAll(async () => {
  stack.startWorker();
  await stack.runSettled(runId);
  await stack.stop();
});

async function createKey(name: string, role: 'ADMIN' | 'VIEWER'): Promise<{ id: string; secret: string }> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string; apiKey: { id: string } } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
    { input: { name, role, projectIds: role === 'ADMIN' ? null : [projectId] } },
  );
  return { id: createApiKey.apiKey.id, secret: createApiKey.secret };
}

const revoke = (id: string) => stack.query('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id });

async function keyNames(): Promise<string[]> {
  const { apiKeys } = await stack.query<{ apiKeys: { name: string }[] }>('{ apiKeys { name } }');
  return apiKeys.map((key) => key.name);
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

/** A server frame: `next` carries a result ({ data, errors }), `error` a list of errors. */
interface Frame {
  id?: string;
  type: string;
  payload?: unknown;
}

const errorsOf = (frame: Frame): GraphqlError[] | undefined =>
  frame.type === 'error'
    ? (frame.payload as GraphqlError[])
    : (frame.payload as { errors?: GraphqlError[] } | undefined)?.errors;

/** A graphql-transport-ws connection spoken frame by frame, as a probe would. */
class Live {
  readonly frames: Frame[] = [];
  closed?: { code: number; reason: string };
  private readonly wakers = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Frame);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }

  /** Opens a socket and sends connection_init with the key; settles on the ack or the close. */
  static async connect(key: string): Promise<Live> {
    const socket = new WebSocket(`${stack.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const live = new Live(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-API-Key': key } }));
    await live.until(() => live.closed ?? live.frames.find((f) => f.type === 'connection_ack'), 'the ack');
    return live;
  }

  get acknowledged(): boolean {
    return this.frames.some((f) => f.type === 'connection_ack');
  }

  send(id: string, query: string, variables: Record<string, unknown> = {}): void {
    this.socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
  }

  complete(id: string): void {
    this.socket.send(JSON.stringify({ id, type: 'complete' }));
  }

  /** The first answer to operation `id`: its first result, its error, or its completion. */
  answer(id: string): Promise<Frame> {
    return this.until(
      () => this.frames.find((f) => f.id === id && ['next', 'error', 'complete'].includes(f.type)),
      `an answer to ${id}`,
    );
  }

  /** The error code of operation `id`'s answer, or 'OK' for data without errors. */
  async outcome(id: string): Promise<string> {
    const frame = await this.answer(id);
    const first = errorsOf(frame)?.[0];
    if (first) return first.extensions?.code ?? `no code: ${JSON.stringify(first)}`;
    return frame.type === 'next' ? 'OK' : frame.type;
  }

  close(): void {
    this.socket.close();
  }

  /** Waits for `pick` to find something, woken by each frame or the close; the deadline only bounds a hang. */
  until<T>(pick: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = pick();
        if (found === undefined) return false;
        clearTimeout(timer);
        this.wakers.delete(check);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.wakers.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms; frames: ${JSON.stringify(this.frames)}`));
      }, timeoutMs);
      if (!check()) this.wakers.add(check);
    });
  }

  private wake(): void {
    for (const check of [...this.wakers]) check();
  }
}

const followRun = () => `subscription { syncRunUpdates(id: "${runId}") { id status } }`;

describe('a key revoked while its socket is open', () => {
  it('cannot mint a key with an ADMIN key revoked over its open socket: UNAUTHENTICATED', async () => {
    const admin = await createKey('ws admin to revoke', 'ADMIN');
    const live = await Live.connect(admin.secret);
    try {
      live.send('before', followRun());
      expect(await live.outcome('before')).toBe('OK');
      await revoke(admin.id);
      live.send(
        'mint',
        'mutation { createApiKey(input: {name: "minted over a revoked socket", role: ADMIN}) { secret } }',
      );
      const answer = await live.answer('mint');
      expect(JSON.stringify(answer)).toContain('UNAUTHENTICATED');
      expect(JSON.stringify(answer)).not.toContain('secret":"trove_');
      expect(await keyNames()).not.toContain('minted over a revoked socket');
      // A new subscription is refused too, and the open one ends within its re-check.
      live.send('after', followRun());
      expect(await live.outcome('after')).toBe('UNAUTHENTICATED');
      await live.until(
        () => live.frames.find((f) => f.id === 'before' && f.type === 'error'),
        'the end of the open subscription',
      );
    } finally {
      live.close();
    }
  });

  it('cannot search with a VIEWER key revoked over its open socket: UNAUTHENTICATED', async () => {
    const viewer = await createKey('ws viewer to revoke', 'VIEWER');
    const live = await Live.connect(viewer.secret);
    try {
      live.send('before', followRun());
      expect(await live.outcome('before')).toBe('OK');
      await revoke(viewer.id);
      live.send('search', 'query($p: ID!) { search(input: {projectId: $p, query: "handbook"}) { tookMs } }', {
        p: projectId,
      });
      expect(await live.outcome('search')).toBe('UNAUTHENTICATED');
    } finally {
      live.close();
    }
  });
});

describe('only subscriptions over the socket', () => {
  it('refuses a query or mutation of a valid key with BAD_REQUEST, unexecuted; subscriptions go on', async () => {
    const admin = await createKey('ws admin for queries', 'ADMIN');
    const live = await Live.connect(admin.secret);
    try {
      live.send(
        'mint',
        'mutation { createApiKey(input: {name: "minted over a socket", role: VIEWER}) { secret } }',
      );
      const mint = await live.answer('mint');
      expect(mint.type).toBe('error');
      expect(mint.payload).toEqual([
        {
          message: expect.stringContaining('only subscriptions'),
          extensions: { code: 'BAD_REQUEST' },
        },
      ]);
      expect(await keyNames()).not.toContain('minted over a socket');
      live.send('query', '{ projects { id } }');
      expect(await live.outcome('query')).toBe('BAD_REQUEST');
      live.send('follow', followRun());
      expect(await live.outcome('follow')).toBe('OK');
    } finally {
      live.close();
    }
  });
});

describe('the query limits of HTTP', () => {
  let live: Live;
  beforeAll(async () => {
    live = await Live.connect((await createKey('ws limits', 'VIEWER')).secret);
  });
  afterAll(() => live.close());

  const refusal = async (id: string, query: string) => {
    live.send(id, query);
    const answer = await live.answer(id);
    expect(answer.type).toBe('error');
    return errorsOf(answer)!;
  };

  it('refuses 16 aliases with QUERY_TOO_COMPLEX, as POST /graphql does', async () => {
    const query = `{ projects { ${Array.from({ length: 16 }, (_, i) => `a${i}: id`).join(' ')} } }`;
    const errors = await refusal('aliases', query);
    expect(errors).toContainEqual({
      message: 'Aliases limit of 15 exceeded, found 16.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    expect(errors).toEqual((await stack.gql(query)).errors);
  });

  it('refuses a subscription over the token limit with QUERY_TOO_COMPLEX', async () => {
    const errors = await refusal(
      'tokens',
      `subscription { syncRunUpdates(id: "${runId}") { ${'id '.repeat(2000)} } }`,
    );
    expect(errors).toEqual([
      { message: 'Token limit of 1000 exceeded.', extensions: { code: 'QUERY_TOO_COMPLEX' } },
    ]);
  });

  it('refuses the aliased introspection bomb (under 1 KB) unexecuted', async () => {
    const ten = (alias: string, field: string) =>
      Array.from({ length: 10 }, (_, i) => `${alias}${i}: ${field}`).join(' ');
    const bomb = [
      `query { ${ten('s', '__schema { ...S }')} }`,
      `fragment S on __Schema { ${ten('t', 'types { ...T }')} }`,
      `fragment T on __Type { ${ten('f', 'fields { ...F }')} }`,
      `fragment F on __Field { ${ten('y', 'type { name kind }')} }`,
    ].join(' ');
    expect(bomb.length).toBeLessThan(1000);
    const errors = await refusal('bomb', bomb);
    expect(errors).toContainEqual({
      message: 'Aliases limit of 15 exceeded, found 11110.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('refuses 20 aliased 1,700-character searches in one message unexecuted', async () => {
    const text = 'how do we handle incidents '.repeat(63).slice(0, 1700);
    const searches = Array.from(
      { length: 20 },
      (_, i) => `s${i}: search(input: {projectId: "${projectId}", query: "${text} ${i}"}) { tookMs }`,
    ).join(' ');
    const errors = await refusal('searches', `query { ${searches} }`);
    expect(errors.map((e) => e.extensions?.code)).toContain('QUERY_TOO_COMPLEX');
    expect(errors.map((e) => e.message)).toContain('Aliases limit of 15 exceeded, found 20.');
    // The connection is still served after the refusals.
    live.send('after', followRun());
    expect(await live.outcome('after')).toBe('OK');
  });
});

describe('the rate limit of HTTP', () => {
  it(`counts every operation on the socket in the key's ${LIMIT} a minute, then RATE_LIMITED`, async () => {
    const key = await createKey('ws flood', 'VIEWER');
    const live = await Live.connect(key.secret); // connection_init is the first request
    try {
      // The probe's flood: queries, all sent at once (refused as queries until the budget is spent).
      const ids = Array.from({ length: LIMIT + 5 }, (_, i) => `op${i}`);
      for (const id of ids) live.send(id, '{ projects { id } }');
      const outcomes = await Promise.all(ids.map((id) => live.outcome(id)));
      expect(outcomes.filter((o) => o === 'BAD_REQUEST')).toHaveLength(LIMIT - 1);
      expect(outcomes.filter((o) => o === 'RATE_LIMITED')).toHaveLength(6);
      const refused = errorsOf(await live.answer(ids[outcomes.indexOf('RATE_LIMITED')]))!;
      expect(refused[0].message).toMatch(/too many requests for this API key; retry after \d+ s/);
      // One budget for both protocols.
      const http = await fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: { 'X-API-Key': key.secret, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ projects { id } }' }),
      });
      expect(http.status).toBe(429);
    } finally {
      live.close();
    }
  });
});

describe('subscriptions are capped', () => {
  it(`per socket (${PER_SOCKET}) and per key (${PER_KEY}); a completed one frees its slot`, async () => {
    const key = await createKey('ws caps', 'VIEWER');
    const first = await Live.connect(key.secret);
    const second = await Live.connect(key.secret);
    try {
      for (let i = 0; i < PER_SOCKET; i++) {
        first.send(`a${i}`, followRun());
        expect(await first.outcome(`a${i}`)).toBe('OK');
      }
      first.send('a-over', followRun());
      const perSocket = await first.answer('a-over');
      expect(perSocket.payload).toEqual([
        {
          message: `too many subscriptions on this connection (at most ${PER_SOCKET}); complete one first`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ]);
      for (let i = 0; i < PER_KEY - PER_SOCKET; i++) {
        second.send(`b${i}`, followRun());
        expect(await second.outcome(`b${i}`)).toBe('OK');
      }
      second.send('b-over', followRun());
      const perKey = await second.answer('b-over');
      expect(perKey.payload).toEqual([
        {
          message: `too many subscriptions for this API key (at most ${PER_KEY}); complete one first`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ]);
      // Completing one (or closing its socket) gives its slot back.
      first.complete('a0');
      await expect
        .poll(
          async () => {
            const id = `b-retry-${Date.now()}`;
            second.send(id, followRun());
            return second.outcome(id);
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe('OK');
    } finally {
      first.close();
      second.close();
    }
  });
});

// Last: it spends this address's failure budget for the rest of the window.
describe('guessing keys over WebSocket', () => {
  it('counts failed connection_inits in the address budget of failed HTTP authentications', async () => {
    const guesses: Live[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const guess = await Live.connect(`trove_${'0'.repeat(32)}_${'A'.repeat(42)}${i % 10}`);
      guesses.push(guess);
      if (guess.closed?.code !== 4403) break;
    }
    const last = guesses.at(-1)!;
    expect(last.closed?.code).toBe(4429);
    expect(last.closed?.reason).toMatch(/^RATE_LIMITED: too many requests/);
    expect(guesses.slice(0, -1).every((g) => g.closed?.code === 4403)).toBe(true);
    expect(guesses.every((g) => !g.acknowledged)).toBe(true);
    // The same budget as HTTP: a wrong key over HTTP from this address is now refused too.
    const http = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'X-API-Key': 'still-guessing-0000000000', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ projects { id } }' }),
    });
    expect(http.status).toBe(429);
    // As over HTTP, a valid key from the address is still let in.
    const valid = await Live.connect((await createKey('ws after guesses', 'VIEWER')).secret);
    try {
      expect(valid.acknowledged).toBe(true);
    } finally {
      valid.close();
    }
  });
});

describe('the socket itself', () => {
  it('closes a socket that sends a message over 100 KB (1009) before parsing it; smaller ones are read', async () => {
    const viewer = await createKey('ws big message', 'VIEWER');
    const live = await Live.connect(viewer.secret);
    live.send('small', followRun());
    expect(await live.outcome('small')).toBe('OK');
    // A subscription padded with a comment past the cap: refused by size, not by the token limit.
    live.send('big', `${followRun()} #${'x'.repeat(110 * 1024)}`);
    const closed = await live.until(() => live.closed, 'the close');
    expect(closed.code).toBe(1009);
    expect(live.frames.some((f) => f.id === 'big')).toBe(false);
  });

  it('closes (4406) a socket that offers only the legacy subscriptions-transport-ws protocol', async () => {
    // Spoken over raw TCP: a WebSocket client would give up itself when no subprotocol is chosen,
    // which would not show that the server closes the socket rather than leaving it open.
    const { port } = new URL(stack.url);
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    // Settles once the server's answer holds a frame after the upgrade's headers (or the socket ends).
    const answered = new Promise<void>((resolve) => {
      const check = () => {
        const all = Buffer.concat(received);
        const end = all.indexOf('\r\n\r\n');
        if (end >= 0 && all.length >= end + 4 + 4) resolve();
      };
      socket.on('data', (chunk) => {
        received.push(chunk);
        check();
      });
      socket.on('close', () => resolve());
    });
    socket.write(
      [
        'GET /graphql HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: graphql-ws',
        '',
        '',
      ].join('\r\n'),
    );
    await Promise.race([
      answered,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the legacy socket was left open')), 30_000),
      ),
    ]);
    socket.destroy();
    const answer = Buffer.concat(received);
    const headerEnd = answer.indexOf('\r\n\r\n');
    expect(answer.subarray(0, headerEnd).toString()).toMatch(/^HTTP\/1\.1 101/);
    // The server's close frame: opcode 8, then the status code.
    const frame = answer.subarray(headerEnd + 4);
    expect(frame[0]! & 0x0f).toBe(8);
    expect(frame.readUInt16BE(2)).toBe(4406);
  });
});
