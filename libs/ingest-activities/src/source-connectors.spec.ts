import { SourceType } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { FakeConnector, InMemoryCatalog } from './fakes.testing';
import { SourceConnectors } from './source-connectors';

describe('SourceConnectors', () => {
  const all = () => Object.values(SourceType).map((type) => new FakeConnector(type));

  it('refuses to be built without a connector for every source type, naming the missing ones', () => {
    expect(() => new SourceConnectors([new FakeConnector(SourceType.NOTION)])).toThrow(
      /no connector for FOLDER, WEB sources/,
    );
    expect(() => new SourceConnectors(all())).not.toThrow();
  });

  it('refuses two connectors for one type', () => {
    expect(() => new SourceConnectors([...all(), new FakeConnector(SourceType.WEB)])).toThrow(
      /two connectors for WEB sources/,
    );
  });

  it("picks a source's connector by its type; a partial registry (tests) refuses the types it lacks", () => {
    const connectors = all();
    const registry = new SourceConnectors(connectors);
    const source = new InMemoryCatalog().newSource();
    expect(registry.for(source)).toBe(connectors.find((c) => c.type === SourceType.WEB));
    expect(registry.all()).toHaveLength(connectors.length);

    const partial = new SourceConnectors([new FakeConnector(SourceType.WEB)], { complete: false });
    expect(() => partial.ofType(SourceType.NOTION)).toThrow(/no connector for NOTION sources/);
  });
});
