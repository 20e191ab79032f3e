/** Bounds and pace of an adaptive in-flight limit. */
export interface AdaptiveLimitOptions {
  /** Where the limit starts. */
  initial: number;
  /** Never below: 2 keeps a one-request-at-a-time server busy between requests. */
  min: number;
  /** Never above. */
  max: number;
  /**
   * A raise is kept only when throughput grew by at least this share of what a server that
   * scales perfectly would give (limit n → n + 1: (n + 1) / n). 0.5: half of it.
   */
  keepShare?: number;
  /** Windows the limit holds after a raise was taken back, before it tries again. */
  holdWindows?: number;
}

/** One request's outcome, as the scheduler saw it. */
export interface LimitSample {
  /** When it came back (ms, monotonic). */
  at: number;
  /** Its work: characters sent, so batches of different sizes compare. */
  size: number;
  /** The server refused it for overload (429, 503, a timeout). */
  overloaded: boolean;
  /** Other requests were waiting for a turn when it came back: the limit, not demand, set the pace. */
  saturated: boolean;
}

type Step = 'raised' | 'held';

/**
 * How many requests a process keeps at the embedding server, found by trying: the limit is raised
 * by one while that makes throughput grow (a server that embeds requests in parallel: a hosted
 * API, several replicas) and taken back when it does not (a local server that embeds one request
 * at a time, where a further request only waits there, and a webhook edit's passages would wait
 * behind it). An overload answer halves it. Throughput is measured only over windows in which
 * requests were waiting for a turn, so a quiet period teaches nothing.
 */
export class AdaptiveLimit {
  private current: number;
  private readonly keepShare: number;
  private readonly holdWindows: number;
  private window: { start: number; size: number; count: number } | undefined;
  /** Throughput (size per ms) of the last window at the limit before the last raise. */
  private before: number | undefined;
  private step: Step = 'held';
  private hold = 0;

  constructor(
    private readonly options: AdaptiveLimitOptions,
    private readonly onChange?: (limit: number) => void,
  ) {
    if (options.min < 1 || options.max < options.min) {
      throw new Error(`an adaptive limit needs 1 <= min <= max (got ${options.min}..${options.max})`);
    }
    this.current = clamp(options.initial, options.min, options.max);
    this.keepShare = options.keepShare ?? 0.5;
    this.holdWindows = options.holdWindows ?? 8;
  }

  get limit(): number {
    return this.current;
  }

  /** Records a request that came back; the limit may move. */
  record(sample: LimitSample): void {
    if (sample.overloaded) {
      this.set(Math.max(this.options.min, Math.floor(this.current / 2)));
      this.step = 'held';
      this.hold = this.holdWindows;
      this.window = undefined;
      this.before = undefined;
      return;
    }
    if (!sample.saturated) {
      // Demand, not the limit, set the pace: this window says nothing about the server.
      this.window = undefined;
      return;
    }
    if (!this.window) {
      // The window opens at a completion: what came back before it is not counted.
      this.window = { start: sample.at, size: 0, count: 0 };
      return;
    }
    this.window.size += sample.size;
    this.window.count += 1;
    // Enough completions that each request slot came back a few times.
    if (this.window.count < Math.max(8, 3 * this.current)) return;
    const elapsed = sample.at - this.window.start;
    const throughput = elapsed > 0 ? this.window.size / elapsed : Number.POSITIVE_INFINITY;
    this.window = undefined;
    this.decide(throughput);
  }

  private decide(throughput: number): void {
    if (this.step === 'raised' && this.before !== undefined) {
      const previous = this.current - 1;
      const ideal = this.current / previous;
      const wanted = 1 + this.keepShare * (ideal - 1);
      if (throughput < this.before * wanted) {
        // The raise bought little: the server was already busy. Back, and wait before trying again.
        this.set(previous);
        this.step = 'held';
        this.hold = this.holdWindows;
        this.before = undefined;
        return;
      }
    }
    if (this.hold > 0) {
      this.hold -= 1;
      this.step = 'held';
      return;
    }
    if (this.current >= this.options.max) {
      this.step = 'held';
      return;
    }
    this.before = throughput;
    this.set(this.current + 1);
    this.step = 'raised';
  }

  private set(limit: number): void {
    if (limit === this.current) return;
    this.current = limit;
    this.onChange?.(limit);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
