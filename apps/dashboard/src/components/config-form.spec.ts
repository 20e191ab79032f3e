import { describe, expect, it } from 'vitest';
import {
  configFromValues,
  describedSettings,
  formFields,
  initialValues,
  problemsByField,
  splitFields,
} from './config-form';

/** The shapes `sourceTypes` gives (zod's JSON Schema of the connectors' configurations). */
const web = {
  type: 'object',
  properties: {
    url: { description: 'A base URL', type: 'string', format: 'uri' },
    maxPages: { type: 'integer', minimum: 1, maximum: 100000 },
  },
  required: ['url'],
};
const folder = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1 },
    format: { type: 'string', enum: ['AUTO', 'MKDOCS', 'FILES'], default: 'AUTO' },
  },
};
const notion = {
  type: 'object',
  properties: {
    token: { type: 'string', writeOnly: true },
    rootPageIds: { type: 'array', items: { type: 'string' } },
    everything: { type: 'boolean' },
    headers: { type: 'object' },
  },
  required: ['token'],
};

describe('a source type’s form from its schema', () => {
  it('gives a URL input, a number input with its range, required marks and labels', () => {
    expect(formFields(web)).toEqual([
      { name: 'url', label: 'URL', kind: 'url', required: true, secret: false, description: 'A base URL' },
      {
        name: 'maxPages',
        label: 'Max pages',
        kind: 'integer',
        required: false,
        secret: false,
        min: 1,
        max: 100000,
      },
    ]);
  });

  it('gives a select for an enum (its default chosen), a password input for a secret, a list, a checkbox, JSON otherwise', () => {
    const [path, format] = formFields(folder);
    expect([path.kind, format.kind, format.options]).toEqual(['text', 'select', ['AUTO', 'MKDOCS', 'FILES']]);
    expect(initialValues(formFields(folder))).toEqual({ path: '', format: 'AUTO' });
    expect(formFields(notion, ['token']).map((f) => [f.name, f.kind, f.secret])).toEqual([
      ['token', 'text', true],
      ['rootPageIds', 'list', false],
      ['everything', 'boolean', false],
      ['headers', 'json', false],
    ]);
  });

  it('makes the config of an added source: blanks left out, numbers, lists split by line', () => {
    const fields = formFields(notion, ['token']);
    const values = { token: ' ntn_abc ', rootPageIds: 'a\nb, c\n\n', everything: false, headers: '' };
    expect(configFromValues(fields, values)).toEqual({
      config: { token: 'ntn_abc', rootPageIds: ['a', 'b', 'c'], everything: false },
      problems: {},
    });
    expect(configFromValues(formFields(web), { url: 'https://a.example/', maxPages: '' }).config).toEqual({
      url: 'https://a.example/',
    });
    expect(configFromValues(fields, { ...values, headers: '{x' }).problems).toEqual({
      headers: 'not valid JSON',
    });
  });

  it('edits a stored source: filled from its config, a blank secret kept, a blank optional field cleared', () => {
    const fields = formFields(notion, ['token']);
    const stored = { rootPageIds: ['a'], everything: true, token: { sealed: 'x', hint: 'ntn_…' } };
    const values = initialValues(fields, stored);
    expect(values).toEqual({ token: '', rootPageIds: 'a', everything: true, headers: '' });
    expect(configFromValues(fields, { ...values, rootPageIds: '' }, true).config).toEqual({
      rootPageIds: null,
      everything: true,
      headers: null,
    });
  });

  it('puts the API’s problems beside their fields, the others apart', () => {
    const problems = [
      { field: 'config.maxPages', message: 'Too small' },
      { field: 'config.url', message: 'Invalid URL' },
      { field: 'config.colour', message: 'unknown field' },
    ];
    expect(problemsByField(problems, formFields(web))).toEqual({
      maxPages: 'Too small',
      url: 'Invalid URL',
      '': 'config.colour: unknown field',
    });
  });
});

describe('a form’s basic and advanced fields', () => {
  it('puts the required fields up front and the optional ones under Advanced', () => {
    const { basic, advanced } = splitFields(formFields(notion, ['token']));
    expect(basic.map((f) => f.name)).toEqual(['token']);
    expect(advanced.map((f) => f.name)).toEqual(['rootPageIds', 'everything', 'headers']);
  });

  it('shows the first field up front when the schema requires none', () => {
    const { basic, advanced } = splitFields(formFields(folder));
    expect(basic.map((f) => f.name)).toEqual(['path']);
    expect(advanced.map((f) => f.name)).toEqual(['format']);
  });
});

describe('a description naming server settings', () => {
  it('reads in words, the setting names set apart', () => {
    expect(
      describedSettings(
        'A folder inside the folders this server may read (setting TROVE_FOLDER_ROOTS). Required.',
      ),
    ).toEqual({
      text: 'A folder inside the folders this server may read. Required.',
      settings: ['TROVE_FOLDER_ROOTS'],
    });
    expect(describedSettings('A base URL')).toEqual({ text: 'A base URL', settings: [] });
    expect(describedSettings(undefined)).toEqual({ settings: [] });
  });
});
