import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { SourceType } from './model';
import {
  configProblem,
  type SecretSealer,
  type SourceConfig,
  SourceConfigError,
  type SourceDefinition,
  SourceDefinitions,
} from './source-definition';

/** A sealer whose output shows what it sealed, to check what is and is not sealed. */
const seal: SecretSealer = (plain) => ({ sealed: `sealed(${plain})`, hint: `${plain.slice(0, 2)}…` });

// Fake types: the domain knows no connector, so the registry is exercised with names of its own.
const WEB = 'WEB';
const NOTION = 'NOTION';
const FOLDER = 'FOLDER';
const TYPES = [NOTION, FOLDER, WEB];

const web: SourceDefinition = {
  type: WEB,
  label: 'Web',
  description: 'pages',
  configSchema: z.strictObject({
    url: z.url(),
    maxPages: z.number().int().min(1).max(10).optional(),
    apiKey: z.string().min(4),
  }),
  secretFields: ['apiKey'],
  serverFields: ['cursor'],
  async prepare(config: SourceConfig) {
    if (String(config['url']).includes('forbidden')) throw configProblem(WEB, 'url', 'refused');
    return { ...config, maxPages: config['maxPages'] ?? 5 };
  },
};
const stub = (type: SourceType): SourceDefinition => ({
  type,
  label: type,
  description: type,
  configSchema: z.strictObject({}),
  secretFields: [],
});
const definitions = () => new SourceDefinitions([web, stub(NOTION), stub(FOLDER)], TYPES);

async function problems(run: () => Promise<unknown>) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceConfigError);
  return error as SourceConfigError;
}

describe('SourceDefinitions', () => {
  it('refuses to be built without a definition for every type, or with two for one', () => {
    expect(() => new SourceDefinitions([web], TYPES)).toThrow('no source definition for type NOTION, FOLDER');
    expect(() => new SourceDefinitions([web, web], [WEB])).toThrow('two source definitions');
    const archive = { configure: () => ({}), isArchive: () => true };
    expect(
      () =>
        new SourceDefinitions(
          [
            { ...web, archive },
            { ...stub(FOLDER), archive },
          ],
          [WEB, FOLDER],
        ),
    ).toThrow('two source types take uploaded archives: WEB, FOLDER');
    expect(() => definitions().archiveType()).toThrow('no source type takes uploaded archives');
    expect(() => new SourceDefinitions([{ ...web, secretFields: ['password'] }], [WEB])).toThrow(
      'secret field "password" is not in its schema',
    );
  });

  it("summarises a configuration by its type's summarize, else by its first text, never by a secret", () => {
    const stored = { apiKey: { sealed: 'x', hint: 'se…' }, cursor: 'next-page', url: 'https://a.example/' };
    expect(definitions().summary(WEB, stored)).toBe('https://a.example/');
    const summarized = new SourceDefinitions(
      [{ ...web, summarize: (config) => `pages of ${String(config['url'])}` }],
      [WEB],
    );
    expect(summarized.summary(WEB, stored)).toBe('pages of https://a.example/');
    expect(definitions().summary(NOTION, {})).toBe('');
  });

  it('answers an unknown type with BAD_REQUEST naming the known ones', async () => {
    const error = await problems(() => definitions().configure('GOPHER', {}, seal));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/type: unknown source type; one of WEB, NOTION, FOLDER/);
  });

  it('validates a configuration and names every field at fault, unknown ones too', async () => {
    const error = await problems(() =>
      definitions().configure(WEB, { url: 'not a url', maxPages: 11, colour: 'red' }, seal),
    );
    expect(error.problems.map((p) => p.field).sort()).toEqual([
      'config.apiKey',
      'config.colour',
      'config.maxPages',
      'config.url',
    ]);
    expect(error.message).toMatch(/^invalid WEB source configuration: /);
    expect(error.message).toContain('config.colour: unknown field');
    expect((await problems(() => definitions().configure(WEB, [], seal))).message).toContain(
      'config: must be a JSON object',
    );
  });

  it("runs the type's own checks after the schema's", async () => {
    const error = await problems(() =>
      definitions().configure(WEB, { url: 'https://forbidden.test/', apiKey: 'k-1234' }, seal),
    );
    expect(error.problems).toEqual([{ field: 'config.url', message: 'refused' }]);
  });

  it('seals the secret fields, and only those, and hides them from clients', async () => {
    const registry = definitions();
    const stored = await registry.configure(WEB, { url: 'https://a.test/', apiKey: 'k-1234' }, seal);
    expect(stored).toEqual({
      url: 'https://a.test/',
      maxPages: 5,
      apiKey: { sealed: 'sealed(k-1234)', hint: 'k-…' },
    });
    expect(registry.publicConfig(WEB, { ...stored, cursor: 'c1' })).toEqual({
      url: 'https://a.test/',
      maxPages: 5,
    });
    expect(registry.secretHints(WEB, stored)).toEqual([{ field: 'apiKey', hint: 'k-…' }]);
  });

  it('updates: given fields change, others and left-out secrets stay, null clears, server fields are kept', async () => {
    const registry = definitions();
    const previous = {
      url: 'https://a.test/',
      maxPages: 7,
      apiKey: { sealed: 'sealed(k-1234)', hint: 'k-…' },
      cursor: 'c1',
    };
    expect(await registry.configure(WEB, { url: 'https://b.test/' }, seal, previous)).toEqual({
      url: 'https://b.test/',
      maxPages: 7,
      apiKey: previous.apiKey,
      cursor: 'c1',
    });
    expect(await registry.configure(WEB, { maxPages: null, apiKey: 'k-5678' }, seal, previous)).toEqual({
      url: 'https://a.test/',
      maxPages: 5,
      apiKey: { sealed: 'sealed(k-5678)', hint: 'k-…' },
      cursor: 'c1',
    });
    // A client cannot set a server field.
    const error = await problems(() => registry.configure(WEB, { cursor: 'mine' }, seal, previous));
    expect(error.problems).toEqual([{ field: 'config.cursor', message: 'unknown field' }]);
  });
});
