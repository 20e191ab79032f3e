import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { configFields } from '@trove/api-client';
import { configFromFlags, fieldOptions, parseConfigArgument, typeFlagsCommand } from './source-flags';

const fields = configFields(
  {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri' },
      maxPages: { type: 'integer', minimum: 1 },
      token: { type: 'string', writeOnly: true },
      rootPageIds: { type: 'array', items: { type: 'string' } },
      format: { type: 'string', enum: ['AUTO', 'FILES'] },
      followLinks: { type: 'boolean' },
      headers: { type: 'object' },
    },
    required: ['url'],
  },
  ['token'],
);

/** The flags parsed as `trove sources add <type>` parses them. */
function parse(args: string[]) {
  const parent = new Command('add').exitOverride().configureOutput({ writeErr: () => undefined });
  return typeFlagsCommand('trove sources add test', fields, parent).parse(args, { from: 'user' }).opts();
}

const noSecrets = { env: {}, readStdin: () => Promise.reject(new Error('stdin not expected')) };

describe('flags generated from a type’s schema', () => {
  it('has a flag per field, repeatable for lists, --no- for booleans, and two more ways to give a secret', () => {
    expect(fieldOptions(fields).map((option) => option.flags)).toEqual([
      '--url <value>',
      '--max-pages <n>',
      '--token <value>',
      '--token-env <name>',
      '--token-stdin',
      '--root-page-ids <value>',
      '--format <value>',
      '--follow-links',
      '--no-follow-links',
    ]);
  });

  it('leaves a field named like a flag of sources add itself to --config', () => {
    const clash = configFields({ properties: { name: { type: 'string' }, branch: { type: 'string' } } });
    expect(fieldOptions(clash).map((option) => option.flags)).toEqual(['--branch <value>']);
  });

  it('turns the flags into the configuration, over --config', async () => {
    const flags = parse([
      '--url',
      'https://docs.example.com/',
      '--max-pages',
      '20',
      '--root-page-ids',
      'a',
      '--root-page-ids',
      'b',
      '--format',
      'FILES',
      '--no-follow-links',
    ]);
    expect(
      await configFromFlags(fields, flags, { url: 'https://old.example.com/', headers: { a: 1 } }, noSecrets),
    ).toEqual({
      url: 'https://docs.example.com/',
      maxPages: 20,
      rootPageIds: ['a', 'b'],
      format: 'FILES',
      followLinks: false,
      headers: { a: 1 },
    });
  });

  it('refuses a number that is not one, and a value outside an enum', () => {
    expect(() => parse(['--max-pages', 'many'])).toThrow(/--max-pages must be a whole number/);
    expect(() => parse(['--max-pages', '2.5'])).toThrow(/whole number/);
    expect(() => parse(['--format', 'PDF'])).toThrow(/Allowed choices are AUTO, FILES/);
    expect(() => parse(['--colour', 'red'])).toThrow(/unknown option '--colour'/);
  });

  it('reads a secret from a named environment variable or from standard input', async () => {
    const env = { MY_TOKEN: 'ntn_secret_from_env' };
    expect(
      await configFromFlags(fields, parse(['--token-env', 'MY_TOKEN']), {}, { ...noSecrets, env }),
    ).toEqual({
      token: 'ntn_secret_from_env',
    });
    const stdin = { env: {}, readStdin: () => Promise.resolve('ntn_from_stdin\nignored\n') };
    expect(await configFromFlags(fields, parse(['--token-stdin']), {}, stdin)).toEqual({
      token: 'ntn_from_stdin',
    });
    await expect(configFromFlags(fields, parse(['--token-env', 'UNSET']), {}, noSecrets)).rejects.toThrow(
      'UNSET is not set (--token-env)',
    );
  });
});

describe('--config', () => {
  it('takes a JSON object inline or from @file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-config-'));
    writeFileSync(join(dir, 'web.json'), '{"url": "https://a.example/"}');
    expect(parseConfigArgument('{"maxPages": 3}', dir)).toEqual({ maxPages: 3 });
    expect(parseConfigArgument('@web.json', dir)).toEqual({ url: 'https://a.example/' });
    expect(parseConfigArgument(undefined, dir)).toEqual({});
  });

  it('names what is wrong: not JSON, not an object, no such file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-config-'));
    expect(() => parseConfigArgument('{url:', dir)).toThrow(/--config is not valid JSON/);
    expect(() => parseConfigArgument('[1]', dir)).toThrow(/must be a JSON object/);
    expect(() => parseConfigArgument('@missing.json', dir)).toThrow(/cannot read .*missing\.json \(ENOENT\)/);
  });
});
