import { describe, expect, it } from 'vitest';
import { configFields, describeField, fieldLabel, kebabCase } from './source-config-fields';

/** The shapes `sourceTypes` gives (zod's JSON Schema of the connectors' configurations). */
const web = {
  type: 'object',
  properties: {
    url: { description: 'A base URL', type: 'string', format: 'uri' },
    maxPages: { description: 'At most this many pages', type: 'integer', minimum: 1, maximum: 100000 },
  },
  required: ['url'],
  additionalProperties: false,
};
const notion = {
  type: 'object',
  properties: {
    token: { description: 'Integration token', type: 'string', minLength: 20, writeOnly: true },
    rootPageIds: { type: 'array', items: { type: 'string' } },
  },
  required: ['token'],
};

describe('configFields', () => {
  it('reads strings, integers with their range, and what is required', () => {
    expect(configFields(web)).toEqual([
      {
        name: 'url',
        kind: 'string',
        required: true,
        secret: false,
        description: 'A base URL',
        format: 'uri',
      },
      {
        name: 'maxPages',
        kind: 'integer',
        required: false,
        secret: false,
        description: 'At most this many pages',
        minimum: 1,
        maximum: 100000,
      },
    ]);
  });

  it('marks secrets (writeOnly or named) and reads lists of strings', () => {
    const fields = configFields(notion, ['token']);
    expect(fields.map((f) => [f.name, f.kind, f.secret])).toEqual([
      ['token', 'string', true],
      ['rootPageIds', 'string-list', false],
    ]);
    expect(configFields(notion)[0].secret).toBe(true);
  });

  it('reads enums with their default, booleans, nullable fields, and leaves other shapes to JSON', () => {
    const fields = configFields({
      properties: {
        format: { type: 'string', enum: ['AUTO', 'MKDOCS'], default: 'AUTO' },
        followLinks: { type: 'boolean' },
        branch: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'A branch' },
        depth: { type: ['integer', 'null'] },
        headers: { type: 'object' },
        ports: { type: 'array', items: { type: 'integer' } },
      },
    });
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['format', 'enum'],
      ['followLinks', 'boolean'],
      ['branch', 'string'],
      ['depth', 'integer'],
      ['headers', 'json'],
      ['ports', 'json'],
    ]);
    expect(fields[0]).toMatchObject({ choices: ['AUTO', 'MKDOCS'], default: 'AUTO' });
    expect(fields[2].description).toBe('A branch');
  });

  it('has no fields for a schema that is not an object', () => {
    expect(configFields(undefined)).toEqual([]);
    expect(configFields('nope')).toEqual([]);
  });
});

describe('names and summaries', () => {
  it('makes flag names and labels of camelCase fields', () => {
    expect(kebabCase('maxPages')).toBe('max-pages');
    expect(kebabCase('rootPageIds')).toBe('root-page-ids');
    expect(kebabCase('url')).toBe('url');
    expect(fieldLabel('rootPageIds')).toBe('Root page IDs');
    expect(fieldLabel('url')).toBe('URL');
    expect(fieldLabel('siteUrl')).toBe('Site URL');
  });

  it('summarises a field in one line', () => {
    const [, maxPages] = configFields(web);
    expect(describeField(maxPages)).toBe('maxPages: integer 1..100000 [optional] — At most this many pages');
    expect(describeField(configFields(notion, ['token'])[0])).toContain('[required, secret]');
  });
});
