import { describe, expect, it } from 'vitest';
import { SourceType } from '@trove/domain';
import { createSourceDefinitions } from './source-definitions';

const settings = {
  folders: { roots: [] },
  web: { allowPrivateNetworks: false, defaultMaxPages: 1000 },
};

describe('the source type registry', () => {
  it('has a definition for every source type, each with a JSON schema for forms', () => {
    const descriptions = createSourceDefinitions(settings).describe();
    expect(descriptions.map((d) => d.type).sort()).toEqual(Object.values(SourceType).sort());
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
});
