/** How a task waits for its turn. */
export interface TurnOptions {
  /** Interactive tasks go before every bulk one, in the order they came. */
  interactive: boolean;
  /** Bulk tasks of different tenants take turns (round robin); one tenant's go oldest first. */
  tenant: string;
  /** Within a tenant: older work first (epoch ms), then the order they came. */
  since: number;
  /** Aborted while waiting: the task leaves the queue at once and never runs. */
  signal?: AbortSignal;
}

interface Waiting {
  since: number;
  seq: number;
  start(): void;
}

/**
 * Runs at most `concurrency` tasks at once; the others wait. Interactive ones go first; bulk
 * ones take turns by tenant: the tenant at the head of the rotation gives its oldest task, then
 * goes to the back, so a tenant with one task waits behind at most one task of each other
 * tenant, however many those have queued.
 */
export class FairScheduler {
  private running = 0;
  private seq = 0;
  private readonly interactive: Waiting[] = [];
  /** Tenants with waiting bulk tasks, in rotation order (a Map keeps insertion order). */
  private readonly bulk = new Map<string, Waiting[]>();

  constructor(private concurrency: number) {}

  /** Tasks run at once from now on; raising it starts waiting ones at once, lowering it lets running ones finish. */
  setConcurrency(concurrency: number): void {
    this.concurrency = concurrency;
    this.next();
  }

  /** Tasks run at once. */
  get concurrencyNow(): number {
    return this.concurrency;
  }

  /** Tasks waiting for their turn, not counting those running. */
  get waiting(): number {
    let count = this.interactive.length;
    for (const queue of this.bulk.values()) count += queue.length;
    return count;
  }

  run<T>(task: () => Promise<T>, options: TurnOptions): Promise<T> {
    const { signal } = options;
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        if (this.remove(entry, options)) reject(signal!.reason);
      };
      const entry: Waiting = {
        since: options.since,
        seq: this.seq++,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running += 1;
          // A task that throws synchronously rejects like one that fails later.
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              this.running -= 1;
              this.next();
            });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (options.interactive) this.interactive.push(entry);
      else this.enqueueBulk(entry, options.tenant);
      this.next();
    });
  }

  private enqueueBulk(entry: Waiting, tenant: string): void {
    let queue = this.bulk.get(tenant);
    if (!queue) {
      queue = [];
      this.bulk.set(tenant, queue);
    }
    // Kept sorted by (since, seq); new work is usually the youngest, so search from the end.
    let i = queue.length;
    while (i > 0 && queue[i - 1].since > entry.since) i--;
    queue.splice(i, 0, entry);
  }

  private next(): void {
    while (this.running < this.concurrency) {
      const entry = this.take();
      if (!entry) return;
      entry.start();
    }
  }

  private take(): Waiting | undefined {
    const interactive = this.interactive.shift();
    if (interactive) return interactive;
    const head = this.bulk.entries().next();
    if (head.done) return undefined;
    const [tenant, queue] = head.value;
    const entry = queue.shift();
    // To the back of the rotation, or out of it with nothing left.
    this.bulk.delete(tenant);
    if (queue.length > 0) this.bulk.set(tenant, queue);
    return entry;
  }

  private remove(entry: Waiting, options: TurnOptions): boolean {
    const queue = options.interactive ? this.interactive : this.bulk.get(options.tenant);
    const at = queue?.indexOf(entry) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (!options.interactive && queue.length === 0) this.bulk.delete(options.tenant);
    return true;
  }
}
