import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
const { currentBundle } = require('./entry') as { currentBundle: (root: string) => string | undefined };

describe('the trove binary’s choice of entry', () => {
  let root: string;
  const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);
  const write = (path: string, text: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), at(seconds), at(seconds));
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cli-entry-'));
    write('apps/cli/src/main.ts', 'main', 0);
    write('libs/domain/src/errors.ts', 'errors', 0);
    const inputs = { 'apps/cli/src/main.ts': {}, 'libs/domain/src/errors.ts': {} };
    write('dist/cli/meta.json', JSON.stringify({ inputs }), 10);
    write('dist/cli/trove.js', 'bundle', 10);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the bundle while none of its sources changed since it was built', () => {
    expect(currentBundle(root)).toBe(join(root, 'dist', 'cli', 'trove.js'));
  });

  it('runs the sources once one of them is newer than the bundle', () => {
    write('libs/domain/src/errors.ts', 'edited', 20);
    expect(currentBundle(root)).toBeUndefined();
  });

  it('runs the sources when a source of the bundle is gone, or there is no bundle', () => {
    rmSync(join(root, 'libs/domain/src/errors.ts'));
    expect(currentBundle(root)).toBeUndefined();
    rmSync(join(root, 'dist'), { recursive: true });
    expect(currentBundle(root)).toBeUndefined();
  });
});
