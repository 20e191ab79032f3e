import type { Source, SourceType } from './model';
import type { SourceConnector } from './source-connector';

/**
 * The connectors of a worker, one per source type. Built once at start-up; refuses to be built
 * incomplete (`types`: the registered source types; unset: the connectors' own), so a source
 * type without a connector fails the worker's start, not a sync (tests that exercise one kind of
 * source may pass `{ complete: false }`).
 */
export class SourceConnectors {
  private readonly byType: ReadonlyMap<SourceType, SourceConnector>;

  constructor(
    connectors: SourceConnector[],
    options: { complete?: boolean; types?: readonly SourceType[] } = {},
  ) {
    const byType = new Map<SourceType, SourceConnector>();
    for (const connector of connectors) {
      if (byType.has(connector.type)) throw new Error(`two connectors for ${connector.type} sources`);
      byType.set(connector.type, connector as unknown as SourceConnector);
    }
    const types = options.types ?? [...byType.keys()];
    const missing = types.filter((type) => !byType.has(type));
    if (missing.length && options.complete !== false)
      throw new Error(`no connector for ${missing.join(', ')} sources`);
    this.byType = byType;
  }

  /** The connector that reads `source`. */
  for<S extends Source>(source: S): SourceConnector<S> {
    return this.ofType(source.type) as unknown as SourceConnector<S>;
  }

  ofType(type: SourceType): SourceConnector {
    const connector = this.byType.get(type);
    if (!connector) throw new Error(`no connector for ${type} sources`);
    return connector;
  }

  all(): SourceConnector[] {
    return [...this.byType.values()];
  }
}
