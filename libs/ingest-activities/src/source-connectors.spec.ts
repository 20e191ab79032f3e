import { describe, expect, it } from 'vitest';
import { FOLDER_SOURCE_TYPE } from '@trove/connector-folder';
import { NOTION_SOURCE_TYPE } from '@trove/connector-notion';
import { WEB_SOURCE_TYPE } from '@trove/connector-web';
import { FakeConnector, InMemoryCatalog } from './fakes.testing';
import { SourceConnectors } from './source-connectors';

describe('SourceConnectors', () => {
  const types = [NOTION_SOURCE_TYPE, FOLDER_SOURCE_TYPE, WEB_SOURCE_TYPE];
  const all = () => types.map((type) => new FakeConnector(type));

  it('refuses to be built without a connector for every source type, naming the missing ones', () => {
    expect(() => new SourceConnectors([new FakeConnector(NOTION_SOURCE_TYPE)], { types })).toThrow(
      /no connector for FOLDER, WEB sources/,
    );
    expect(() => new SourceConnectors(all(), { types })).not.toThrow();
    // Without a list of types, the connectors given are the whole registry.
    expect(new SourceConnectors([new FakeConnector(NOTION_SOURCE_TYPE)]).all()).toHaveLength(1);
  });

  it('refuses two connectors for one type', () => {
    expect(() => new SourceConnectors([...all(), new FakeConnector(WEB_SOURCE_TYPE)], { types })).toThrow(
      /two connectors for WEB sources/,
    );
  });

  it("picks a source's connector by its type; a partial registry (tests) refuses the types it lacks", () => {
    const connectors = all();
    const registry = new SourceConnectors(connectors, { types });
    const source = new InMemoryCatalog().newSource();
    expect(registry.for(source)).toBe(connectors.find((c) => c.type === WEB_SOURCE_TYPE));
    expect(registry.all()).toHaveLength(connectors.length);

    const partial = new SourceConnectors([new FakeConnector(WEB_SOURCE_TYPE)], { complete: false });
    expect(() => partial.ofType(NOTION_SOURCE_TYPE)).toThrow(/no connector for NOTION sources/);
  });
});
