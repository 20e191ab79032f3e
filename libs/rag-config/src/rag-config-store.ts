import type { RagConfigRecords } from '@trove/catalog';
import type { SecretBox } from '@trove/config';
import {
  applyPatch,
  type EffectiveRagConfig,
  type RagPatch,
  type RagSection,
  type RagSettings,
  resolveSettings,
} from './rag-settings';

export interface RagConfigStoreOptions {
  /** The stored overrides, as the catalog holds them. */
  records: RagConfigRecords;
  /** The environment's settings: what an unset or reset setting is. */
  defaults: RagSettings;
  secrets?: SecretBox;
  /** How long a read is reused before PostgreSQL is asked again (a change elsewhere shows within it). */
  ttlMs?: number;
  log?: (message: string) => void;
  /** The sections this process uses (all by default; the worker: chunking). */
  sections?: RagSection[];
}

/**
 * The effective retrieval and answer settings of this process: the environment's overlaid with
 * the overrides stored in the catalog, re-read at most every `ttlMs`; a change made through this
 * store is seen here at once.
 */
export class RagConfigStore {
  private cached?: { at: number; config: EffectiveRagConfig };
  private warnedVersion?: number;

  constructor(private readonly options: RagConfigStoreOptions) {}

  async current(): Promise<EffectiveRagConfig> {
    const ttl = this.options.ttlMs ?? 2_000;
    if (this.cached && Date.now() - this.cached.at < ttl) return this.cached.config;
    const stored = await this.options.records.get();
    let resolved;
    try {
      resolved = resolveSettings(this.options.defaults, stored, this.options.secrets, this.options.sections);
    } catch (error) {
      // Stored settings this process cannot use (a newer schema, a missing key): keep the
      // environment's rather than fail every search; ragConfig shows the reason.
      const reason = `stored settings (version ${stored.version}) are not in force: ${(error as Error).message}`;
      if (this.warnedVersion !== stored.version) this.options.log?.(reason); // once per version, not per read
      this.warnedVersion = stored.version;
      this.cached = {
        at: Date.now(),
        config: {
          version: stored.version,
          updatedAt: stored.updatedAt,
          settings: this.options.defaults,
          overridden: new Set(),
          warnings: [reason],
        },
      };
      return this.cached.config;
    }
    const config = { version: stored.version, updatedAt: stored.updatedAt, ...resolved };
    this.cached = { at: Date.now(), config };
    return config;
  }

  /**
   * What `build` makes of the current settings, made again only when their version changes (a
   * change through the API on any process) and reused otherwise: clients and chunkers are not
   * built per call.
   */
  follow<T>(build: (settings: RagSettings, version: number) => T): () => Promise<T> {
    let built: { version: number; value: T } | undefined;
    return async () => {
      const { version, settings } = await this.current();
      if (built?.version !== version) built = { version, value: build(settings, version) };
      return built.value;
    };
  }

  /** Validates and stores a change (all of it or nothing); returns the new effective settings. */
  async update(patch: RagPatch): Promise<EffectiveRagConfig> {
    const stored = await this.options.records.get();
    const next = applyPatch(stored, patch, this.options.secrets);
    const resolved = resolveSettings(this.options.defaults, next, this.options.secrets);
    const saved = await this.options.records.save(stored.version, next.overrides, next.secrets);
    const config = { version: saved.version, updatedAt: saved.updatedAt, ...resolved };
    this.cached = { at: Date.now(), config };
    return config;
  }
}
