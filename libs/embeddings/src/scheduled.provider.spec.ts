import { describe, expect, it } from 'vitest';
import type { EmbeddingPurpose } from '@trove/domain';
import { embeddingError } from './embedding-error';
import type { ListingEmbeddingProvider } from './query-lane.provider';
import { priorityOf, ScheduledEmbeddingProvider } from './scheduled.provider';

/** A server that answers only when told to: which requests it holds, in the order they arrived. */
class HeldServer implements ListingEmbeddingProvider {
  readonly dimensions = 1;
  readonly modelId = 'm';
  readonly received: string[] = [];
  private readonly held: { answer: () => void; fail: (error: Error) => void }[] = [];
  maxAtOnce = 0;
  private atOnce = 0;

  async embed(texts: string[], _purpose: EmbeddingPurpose): Promise<number[][]> {
    this.received.push(texts[0]);
    this.maxAtOnce = Math.max(this.maxAtOnce, ++this.atOnce);
    try {
      await new Promise<void>((answer, fail) => this.held.push({ answer, fail }));
    } finally {
      this.atOnce -= 1;
    }
    return texts.map(() => [1]);
  }

  /** Fails the oldest request it holds. */
  async failOne(error: Error): Promise<void> {
    this.held.shift()?.fail(error);
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Requests at the server now. */
  get holding(): number {
    return this.held.length;
  }

  /** Answers the oldest request it holds, then lets the scheduler send the next one. */
  async answerOne(): Promise<void> {
    this.held.shift()?.answer();
    await new Promise((resolve) => setImmediate(resolve));
  }

  async ping(): Promise<void> {
    await this.models();
  }

  async models(): Promise<string[]> {
    return [this.modelId];
  }
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('ScheduledEmbeddingProvider', () => {
  it('keeps at most maxInFlight requests at the server, the rest waiting in the process', async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 2 });
    const calls = ['a', 'b', 'c', 'd', 'e'].map((t) => provider.embed([t], 'passage'));
    await settle();
    expect(server.received).toEqual(['a', 'b']);
    expect(provider.waiting).toBe(3);
    for (let i = 0; i < 5; i++) await server.answerOne();
    await expect(Promise.all(calls)).resolves.toHaveLength(5);
    expect(server.received).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.maxAtOnce).toBe(2);
  });

  it('sends an interactive request before the bulk ones that waited longer, bulk staying in order', async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 1 });
    const calls = [
      provider.embed(['bulk-1'], 'passage'),
      provider.embed(['bulk-2'], 'passage'),
      provider.embed(['bulk-3'], 'passage'),
      provider.embed(['edit'], 'passage', { priority: 'interactive' }),
      provider.embed(['query'], 'query'),
      provider.embed(['bulk-4'], 'passage', { priority: 'bulk' }),
    ];
    await settle();
    for (let i = 0; i < calls.length; i++) await server.answerOne();
    await Promise.all(calls);
    // bulk-1 was already at the server when the others queued.
    expect(server.received).toEqual(['bulk-1', 'edit', 'query', 'bulk-2', 'bulk-3', 'bulk-4']);
  });

  it("sends the requests of older work first, so one batch's requests finish before a younger batch's", async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 1 });
    const calls = [
      provider.embed(['young-1'], 'passage', { since: 2_000 }),
      provider.embed(['young-2'], 'passage', { since: 2_000 }),
      provider.embed(['old-1'], 'passage', { since: 1_000 }),
      provider.embed(['edit'], 'passage', { priority: 'interactive', since: 3_000 }),
      provider.embed(['old-2'], 'passage', { since: 1_000 }),
    ];
    await settle();
    for (let i = 0; i < calls.length; i++) await server.answerOne();
    await Promise.all(calls);
    // young-1 was already at the server; then the edit, then the older batch, then the rest of the younger.
    expect(server.received).toEqual(['young-1', 'edit', 'old-1', 'old-2', 'young-2']);
  });

  it('never sends a request whose caller aborted while it waited', async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 1 });
    const first = provider.embed(['first'], 'passage');
    const controller = new AbortController();
    const aborted = provider.embed(['aborted'], 'passage', { signal: controller.signal });
    const after = provider.embed(['after'], 'passage');
    await settle();
    controller.abort(new Error('activity cancelled'));
    const refused = expect(aborted).rejects.toThrow('activity cancelled');
    await server.answerOne();
    await refused;
    await server.answerOne();
    await Promise.all([first, after]);
    expect(server.received).toEqual(['first', 'after']);
  });

  it("lets tenants take turns: one project's long queue holds another's request back by one at most", async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 1 });
    const big = Array.from({ length: 6 }, (_, i) =>
      provider.embed([`a-${i + 1}`], 'passage', { tenant: 'project-a', since: 1_000 }),
    );
    await settle();
    // Project B's work is younger than all of A's, and arrives after A queued six requests.
    const small = [
      provider.embed(['b-1'], 'passage', { tenant: 'project-b', since: 5_000 }),
      provider.embed(['b-2'], 'passage', { tenant: 'project-b', since: 5_000 }),
    ];
    const edit = provider.embed(['edit'], 'passage', { priority: 'interactive', tenant: 'project-a' });
    await settle();
    for (let i = 0; i < 9; i++) await server.answerOne();
    await Promise.all([...big, ...small, edit]);
    // a-1 was at the server; the edit first; then A and B alternate while both wait.
    expect(server.received).toEqual(['a-1', 'edit', 'a-2', 'b-1', 'a-3', 'b-2', 'a-4', 'a-5', 'a-6']);
  });

  it('takes an aborted request out of the queue at once, before any request ahead of it ends', async () => {
    const server = new HeldServer();
    const provider = new ScheduledEmbeddingProvider(server, { maxInFlight: 1 });
    const first = provider.embed(['first'], 'passage');
    const controller = new AbortController();
    const aborted = provider.embed(['aborted'], 'passage', { signal: controller.signal, tenant: 'gone' });
    await settle();
    expect(provider.waiting).toBe(1);
    controller.abort(new Error('project deleted'));
    await expect(aborted).rejects.toThrow('project deleted');
    expect(provider.waiting).toBe(0);
    await server.answerOne();
    await first;
    expect(server.received).toEqual(['first']);
  });

  it('sends fewer requests at once after the server answers that it is overloaded (adaptive limit)', async () => {
    const server = new HeldServer();
    const limits: number[] = [];
    const provider = new ScheduledEmbeddingProvider(server, {
      maxInFlight: { initial: 4, min: 1, max: 8 },
      onLimit: (limit) => limits.push(limit),
    });
    expect(provider.maxInFlight).toBe(4);
    const calls = Array.from({ length: 8 }, (_, i) => provider.embed([`t-${i}`], 'passage'));
    await settle();
    expect(server.holding).toBe(4);
    const refused = expect(calls[0]).rejects.toThrow('answered 503');
    await server.failOne(embeddingError(503, 'busy'));
    await refused;
    // Halved to 2: the three still at the server finish before another is sent.
    expect(limits).toEqual([2]);
    expect(provider.maxInFlight).toBe(2);
    expect(server.holding).toBe(3);
    await server.answerOne();
    // Three were there, two may be: nothing new is sent until one more comes back.
    expect(server.received).toHaveLength(4);
    expect(server.holding).toBe(2);
    await server.answerOne();
    expect(server.received).toHaveLength(5);
    expect(server.holding).toBe(2);
    while (server.holding > 0) await server.answerOne();
    await Promise.all(calls.slice(1));
    expect(server.received).toHaveLength(8);
  });

  it('gives queries interactive priority and passages bulk unless the caller says otherwise', () => {
    expect(priorityOf('query')).toBe('interactive');
    expect(priorityOf('passage')).toBe('bulk');
    expect(priorityOf('passage', { priority: 'interactive' })).toBe('interactive');
    expect(priorityOf('query', { priority: 'bulk' })).toBe('bulk');
  });
});
