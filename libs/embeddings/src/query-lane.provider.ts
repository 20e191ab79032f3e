import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { EmbeddingError } from './embedding-error';

/** A provider that can say which models its server serves. */
export interface ModelListing {
  models(): Promise<string[]>;
}

export type ListingEmbeddingProvider = EmbeddingProvider & ModelListing;

export interface QueryLaneOptions {
  /** The query server's address, for log lines. */
  laneUrl: string;
  log?: (message: string) => void;
  /** How long the lane stays unused after a refusal or a failure before it is checked again. */
  recheckMs?: number;
  now?: () => number;
}

export const QUERY_LANE_RECHECK_MS = 30_000;

/** `bge-m3:latest` and `bge-m3` name the same Ollama model. */
const modelName = (id: string) => id.replace(/:latest$/, '');

/**
 * True when a query server makes the same vectors as the main one: both list the model Trove
 * embeds with (servers that pick the model by name, like Ollama or vLLM), or the query server lists
 * exactly the models the main one lists (a single-model server that names its model its own way,
 * like TEI). Trusts the names the servers report.
 */
export function laneServesSameModel(modelId: string, mainModels: string[], laneModels: string[]): boolean {
  const lane = new Set(laneModels.map(modelName));
  const main = new Set(mainModels.map(modelName));
  if (lane.has(modelName(modelId)) && main.has(modelName(modelId))) return true;
  return lane.size > 0 && lane.size === main.size && [...lane].every((id) => main.has(id));
}

/** The lane is down or overloaded (a query is better served by the main server than failed). */
function laneUnavailable(error: unknown): boolean {
  return error instanceof EmbeddingError && !error.permanent;
}

/**
 * Query embeddings at their own server, so a search never queues behind passage batches at a
 * one-request-at-a-time embedder; passages always go to the main server. The lane is used only
 * after its server was seen to serve the same model as the main one (a different model would make
 * vectors the index cannot compare); while it does not, or is down, queries go to the main server
 * and the change is logged once. A refused or failed lane is checked again after `recheckMs`.
 */
export class QueryLaneEmbeddingProvider implements EmbeddingProvider {
  private state: { usable: boolean; until: number } | undefined;
  private checking?: Promise<boolean>;
  private lastLogged?: string;
  private readonly recheckMs: number;
  private readonly now: () => number;

  constructor(
    private readonly main: ListingEmbeddingProvider,
    private readonly lane: ListingEmbeddingProvider,
    private readonly options: QueryLaneOptions,
  ) {
    this.recheckMs = options.recheckMs ?? QUERY_LANE_RECHECK_MS;
    this.now = options.now ?? Date.now;
  }

  get dimensions(): number {
    return this.main.dimensions;
  }

  get modelId(): string {
    return this.main.modelId;
  }

  async embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]> {
    if (purpose !== 'query' || !(await this.laneUsable())) return this.main.embed(texts, purpose, options);
    try {
      return await this.lane.embed(texts, purpose, options);
    } catch (error) {
      if (!laneUnavailable(error)) throw error;
      this.refuse(`failed (${(error as Error).message})`);
      return this.main.embed(texts, purpose, options);
    }
  }

  /** The main server: searches still work while the lane is down. */
  ping(): Promise<void> {
    return this.main.ping();
  }

  /** Whether queries go to the lane now (checks the servers when the last answer has expired). */
  async laneUsable(): Promise<boolean> {
    if (this.state && (this.state.usable || this.now() < this.state.until)) return this.state.usable;
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async check(): Promise<boolean> {
    const [lane, main] = await Promise.allSettled([this.lane.models(), this.main.models()]);
    if (lane.status === 'rejected') {
      this.refuse(`does not answer (${(lane.reason as Error).message})`);
      return false;
    }
    if (main.status === 'rejected') {
      this.refuse(`cannot be compared with the main embedder (${(main.reason as Error).message})`);
      return false;
    }
    if (!laneServesSameModel(this.modelId, main.value, lane.value)) {
      this.refuse(
        `serves ${lane.value.join(', ') || 'no model'}, not the model of the main embedder ` +
          `(${main.value.join(', ') || 'none listed'}; Trove embeds with ${this.modelId})`,
      );
      return false;
    }
    this.state = { usable: true, until: Infinity };
    this.logOnce(`query embeddings go to the query embedder at ${this.options.laneUrl} (${this.modelId})`);
    return true;
  }

  private refuse(reason: string): void {
    this.state = { usable: false, until: this.now() + this.recheckMs };
    this.logOnce(
      `the query embedder at ${this.options.laneUrl} ${reason}; query embeddings go to the main embedder ` +
        `(checked again in ${Math.round(this.recheckMs / 1000)} s)`,
    );
  }

  /** Logs a change of lane, not every request that follows it. */
  private logOnce(message: string): void {
    const key = message.replace(/\(.*$/s, '');
    if (key === this.lastLogged) return;
    this.lastLogged = key;
    this.options.log?.(message);
  }
}
