import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appArgs } from '../../scripts/app-entry';

describe('how the api and the worker are started (scripts/app-entry.js)', () => {
  let root: string;
  const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);
  const write = (path: string, text: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), at(seconds), at(seconds));
  };
  const TYPESCRIPT = ['-r', '@swc-node/register', join('apps', 'worker', 'src', 'main.ts')];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'app-entry-'));
    write('apps/worker/src/main.ts', 'main', 0);
    write('libs/parsing/src/index.ts', 'parsing', 0);
    const inputs = { 'apps/worker/src/main.ts': {}, 'libs/parsing/src/index.ts': {} };
    write('dist/apps/meta.json', JSON.stringify({ inputs }), 10);
    write('dist/apps/worker/main.js', 'bundle', 10);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('starts the bundle, stack traces mapped to the sources, while none of its sources changed', () => {
    expect(appArgs(root, 'worker')).toEqual([
      '--enable-source-maps',
      join('dist', 'apps', 'worker', 'main.js'),
    ]);
  });

  it('starts the TypeScript entry once a source is newer, gone, or there is no bundle for the app', () => {
    expect(appArgs(root, 'api')).toEqual(['-r', '@swc-node/register', join('apps', 'api', 'src', 'main.ts')]);
    write('libs/parsing/src/index.ts', 'edited', 20);
    expect(appArgs(root, 'worker')).toEqual(TYPESCRIPT);
    write('libs/parsing/src/index.ts', 'parsing', 0);
    expect(appArgs(root, 'worker')[0]).toBe('--enable-source-maps');
    rmSync(join(root, 'libs/parsing/src/index.ts'));
    expect(appArgs(root, 'worker')).toEqual(TYPESCRIPT);
  });

  it('names the apps it knows for another', () => {
    expect(() => appArgs(root, 'dashboard' as 'api')).toThrow("unknown app 'dashboard': api or worker");
  });
});
