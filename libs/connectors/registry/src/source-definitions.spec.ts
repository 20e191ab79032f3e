import { describe, expect, it } from 'vitest';
import { notionSchema, webSchema } from '@trove/config';
import { SourceType } from '@trove/domain';
import { createSourceConnectors, createSourceDefinitions } from './source-definitions';
import { registeredSourceTypes } from './source-plugins';

const settings = {
  folders: { roots: [] },
  web: { allowPrivateNetworks: false, defaultMaxPages: 1000 },
};

describe('the source type registry', () => {
  it('has a definition for every source type, each with a JSON schema for forms', () => {
    const descriptions = createSourceDefinitions(settings).describe();
    expect(descriptions.map((d) => d.type).sort()).toEqual([...Object.values(SourceType), 'GIT'].sort());
    const notion = descriptions.find((d) => d.type === SourceType.NOTION)!;
    expect(notion.secretFields).toEqual(['token']);
    expect(notion.webhook).toBe(true);
    expect(notion.configSchema).toMatchObject({
      type: 'object',
      required: ['token'],
      additionalProperties: false,
      properties: { token: { type: 'string', writeOnly: true }, rootPageIds: { type: 'array' } },
    });
    const web = descriptions.find((d) => d.type === SourceType.WEB)!;
    expect(web.configSchema).toMatchObject({
      required: ['url'],
      properties: { maxPages: { type: 'integer', minimum: 1, maximum: 100_000 } },
    });
    expect(web.webhook).toBe(false);
  });

  it('builds a connector for every type it has a definition for, and no other', () => {
    const workerSettings = {
      ...settings,
      folders: { roots: [], cacheDir: '/tmp/trove-registry-spec' },
      web: webSchema.parse({}),
      notion: notionSchema.parse({}),
    };
    const connectors = createSourceConnectors(workerSettings, { blobs: {} as never });
    const types = registeredSourceTypes(settings);
    expect(
      connectors
        .all()
        .map((c) => c.type)
        .sort(),
    ).toEqual([...types].sort());
    expect(
      createSourceDefinitions(settings)
        .list()
        .map((d) => d.type)
        .sort(),
    ).toEqual([...types].sort());
  });
});
