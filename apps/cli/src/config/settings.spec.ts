import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../output/exit-codes';
import { DEFAULT_API_URL, maskSecret, resolveSettings } from './settings';
import { readTroveYaml, writeTroveYaml } from './trove-yaml';

function folderWith(yaml?: string): { root: string; nested: string } {
  const root = mkdtempSync(join(tmpdir(), 'trove-cli-settings-'));
  const nested = join(root, 'a', 'b');
  mkdirSync(nested, { recursive: true });
  if (yaml !== undefined) writeFileSync(join(root, '.trove.yaml'), yaml);
  return { root, nested };
}

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.Usage);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('resolveSettings', () => {
  it('takes flags over the environment over the nearest .trove.yaml over the defaults', () => {
    const { root, nested } = folderWith('apiUrl: http://file:1\nproject: FromFile\nmode: KEYWORD\n');
    const env = { TROVE_API_URL: 'http://env:2', TROVE_PROJECT: 'FromEnv', TROVE_API_KEY: 'env-key' };

    const fromFile = resolveSettings({}, {}, nested);
    expect(fromFile.apiUrl).toMatchObject({ value: 'http://file:1', from: 'file' });
    expect(fromFile.project).toMatchObject({ value: 'FromFile', from: 'file' });
    expect(fromFile.mode.value).toBe('KEYWORD');
    expect(fromFile.file).toBe(join(root, '.trove.yaml'));
    expect(fromFile.apiKey).toBeUndefined();

    const fromEnv = resolveSettings({}, env, nested);
    expect(fromEnv.apiUrl).toMatchObject({ value: 'http://env:2', from: 'env', detail: 'TROVE_API_URL' });
    expect(fromEnv.project?.value).toBe('FromEnv');
    expect(fromEnv.apiKey).toMatchObject({ value: 'env-key', from: 'env' });

    const fromFlags = resolveSettings(
      { apiUrl: 'http://flag:3/', project: 'FromFlag', apiKey: 'flag-key' },
      env,
      nested,
    );
    expect(fromFlags.apiUrl).toMatchObject({ value: 'http://flag:3', from: 'flag' });
    expect(fromFlags.project?.value).toBe('FromFlag');
    expect(fromFlags.apiKey?.value).toBe('flag-key');
  });

  it('falls back to the local api and HYBRID without any file', () => {
    const { nested } = folderWith();
    const settings = resolveSettings({}, {}, nested);
    expect(settings.apiUrl).toEqual({ value: DEFAULT_API_URL, from: 'default' });
    expect(settings.mode).toEqual({ value: 'HYBRID', from: 'default' });
    expect(settings.project).toBeUndefined();
  });

  it('reads apiKeyFile relative to the .trove.yaml, after flag and environment', () => {
    const { root, nested } = folderWith('apiKeyFile: secrets/key\n');
    mkdirSync(join(root, 'secrets'));
    writeFileSync(join(root, 'secrets', 'key'), 'file-key\n');
    expect(resolveSettings({}, {}, nested).apiKey).toMatchObject({ value: 'file-key', from: 'file' });
    expect(resolveSettings({}, { TROVE_API_KEY: 'env-key' }, nested).apiKey?.value).toBe('env-key');
  });

  it('names the file and the field of every problem', () => {
    const { root, nested } = folderWith('apiUrl: not a url\nmode: FUZZY\ncolour: blue\n');
    const message = usageMessage(() => resolveSettings({}, {}, nested));
    expect(message).toContain(join(root, '.trove.yaml'));
    expect(message).toContain('apiUrl: must be a URL');
    expect(message).toMatch(/mode: .*HYBRID/);
    expect(message).toContain('unknown field colour');
  });

  it('refuses an API key written into the file, and an apiKeyFile that cannot be read', () => {
    const withKey = folderWith('apiKey: trove_0123\n');
    expect(usageMessage(() => resolveSettings({}, {}, withKey.nested))).toMatch(/apiKey: keep API keys out/);
    const missing = folderWith('apiKeyFile: nowhere\n');
    expect(usageMessage(() => resolveSettings({}, {}, missing.nested))).toMatch(
      /apiKeyFile: cannot read .*nowhere \(ENOENT\)/,
    );
  });

  it('refuses broken YAML with the file name', () => {
    const { nested } = folderWith('apiUrl: [\n');
    expect(usageMessage(() => resolveSettings({}, {}, nested))).toMatch(/\.trove\.yaml: not valid YAML/);
  });
});

describe('writeTroveYaml', () => {
  it('writes a file that reads back, and refuses to replace it without force', () => {
    const { root } = folderWith();
    const path = join(root, '.trove.yaml');
    writeTroveYaml(path, { apiUrl: 'http://127.0.0.1:4000', project: 'Docs', mode: 'HYBRID' }, false);
    expect(readTroveYaml(path)).toEqual({ apiUrl: 'http://127.0.0.1:4000', project: 'Docs', mode: 'HYBRID' });
    expect(readFileSync(path, 'utf8')).toMatch(/^# trove CLI settings/);
    expect(usageMessage(() => writeTroveYaml(path, { project: 'Other' }, false))).toContain('--force');
    writeTroveYaml(path, { project: 'Other' }, true);
    expect(readTroveYaml(path)).toEqual({ project: 'Other' });
  });
});

describe('maskSecret', () => {
  it('shows only the start of a key', () => {
    const masked = maskSecret(
      'trove_0123456789abcdef0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde',
    );
    expect(masked).toBe('trove_01234567…');
    expect(maskSecret('short')).toBe('…');
  });
});
