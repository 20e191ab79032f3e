import { describe, expect, it } from 'vitest';
import { FOLDER_SOURCE_TYPE } from '@trove/connector-folder';
import { GIT_SOURCE_TYPE } from '@trove/connector-git';
import { NOTION_SOURCE_TYPE } from '@trove/connector-notion';
import { WEB_SOURCE_TYPE } from '@trove/connector-web';
import { WEBHOOK_PATH } from '@trove/domain';
import { createSourceConnectors, createSourceDefinitions } from './source-definitions';
import { registeredSourceTypes } from './source-plugins';

const settings = { folders: { roots: [], cacheDir: '/tmp/trove-registry-spec' } };
const env = {};

describe('the source type registry', () => {
  it('has a definition for every source type, each with a JSON schema for forms', () => {
    const descriptions = createSourceDefinitions(settings, env).describe();
    // These four at least; a connector lib registered since adds its own.
    expect(descriptions.map((d) => d.type)).toEqual(
      expect.arrayContaining([NOTION_SOURCE_TYPE, FOLDER_SOURCE_TYPE, WEB_SOURCE_TYPE, GIT_SOURCE_TYPE]),
    );
    const notion = descriptions.find((d) => d.type === NOTION_SOURCE_TYPE)!;
    expect(notion.secretFields).toEqual(['token']);
    expect(notion.webhook).toBe(true);
    expect(notion.configSchema).toMatchObject({
      type: 'object',
      required: ['token'],
      additionalProperties: false,
      properties: { token: { type: 'string', writeOnly: true }, rootPageIds: { type: 'array' } },
    });
    const web = descriptions.find((d) => d.type === WEB_SOURCE_TYPE)!;
    expect(web.configSchema).toMatchObject({
      required: ['url'],
      properties: { maxPages: { type: 'integer', minimum: 1, maximum: 100_000 } },
    });
    expect(web.webhook).toBe(false);
  });

  it("says what an operator sets up for each type's webhooks: Notion's handshake, Git's secret, none for the others", () => {
    const setups = Object.fromEntries(
      createSourceDefinitions(settings, env)
        .describe()
        .map((d) => [d.type, d.webhookSetup]),
    );
    expect(setups[NOTION_SOURCE_TYPE]).toMatchObject({
      path: WEBHOOK_PATH,
      verificationHandshake: true,
      instructions: expect.stringContaining('Notion webhook subscription'),
    });
    expect(setups[GIT_SOURCE_TYPE]).toMatchObject({
      path: WEBHOOK_PATH,
      verificationHandshake: false,
      instructions: expect.stringContaining('webhookSecret'),
    });
    // A Git source is never told to set up Notion's subscription.
    expect(JSON.stringify(setups[GIT_SOURCE_TYPE])).not.toMatch(/notion/i);
    for (const setup of [setups[NOTION_SOURCE_TYPE], setups[GIT_SOURCE_TYPE]])
      expect(setup?.steps.length).toBeGreaterThan(1);
    expect(setups[FOLDER_SOURCE_TYPE]).toBeNull();
    expect(setups[WEB_SOURCE_TYPE]).toBeNull();
  });

  it("summarises each type's stored configuration in a few words for a source card", () => {
    const definitions = createSourceDefinitions(settings, env);
    const token = { sealed: 'x', hint: 'ntn_…9x (50 chars)' };
    expect(
      definitions.summary(NOTION_SOURCE_TYPE, {
        token,
        everything: true,
        rootPageIds: [],
        rootDatabaseIds: [],
      }),
    ).toBe('every page shared with the integration');
    expect(
      definitions.summary(NOTION_SOURCE_TYPE, {
        token,
        everything: false,
        rootPageIds: ['a'],
        rootDatabaseIds: ['b'],
      }),
    ).toBe('Notion roots a, b');
    expect(
      definitions.summary(FOLDER_SOURCE_TYPE, {
        format: 'MKDOCS',
        archiveBlobKey: 'archives/k',
        archiveFileName: 'site.zip',
        siteUrl: 'https://handbook.example.com',
      }),
    ).toBe('MKDOCS folder site.zip (https://handbook.example.com)');
    expect(definitions.summary(WEB_SOURCE_TYPE, { url: 'https://docs.example.com/', maxPages: 500 })).toBe(
      'web pages under https://docs.example.com/ (at most 500)',
    );
    expect(
      definitions.summary(GIT_SOURCE_TYPE, {
        url: 'https://git.example.com/docs.git',
        branch: 'main',
        exclude: [],
        token,
      }),
    ).toBe('https://git.example.com/docs.git (branch main)');
  });

  it('builds a connector for every type it has a definition for, and no other', () => {
    const connectors = createSourceConnectors(settings, { blobs: {} as never }, env);
    const types = registeredSourceTypes(settings, env);
    expect(
      connectors
        .all()
        .map((c) => c.type)
        .sort(),
    ).toEqual([...types].sort());
    expect(
      createSourceDefinitions(settings, env)
        .list()
        .map((d) => d.type)
        .sort(),
    ).toEqual([...types].sort());
  });

  it("stops at start-up when a plugin's own settings are wrong, naming the variable", () => {
    expect(() => createSourceDefinitions(settings, { TROVE_WEB_MAX_SITEMAPS: 'many' })).toThrow(
      /invalid web connector settings: TROVE_WEB_MAX_SITEMAPS/,
    );
    expect(() => createSourceDefinitions(settings, { TROVE_NOTION_REQUESTS_PER_SECOND: '-1' })).toThrow(
      /invalid Notion connector settings: TROVE_NOTION_REQUESTS_PER_SECOND/,
    );
  });
});
