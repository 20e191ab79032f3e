import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAllowedPath } from './allowed-path';

describe('resolveAllowedPath', () => {
  const base = mkdtempSync(join(tmpdir(), 'allowed-'));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), '# secret');
  symlinkSync(outside, join(root, 'escape'));

  it('accepts paths inside a root and refuses the rest, links followed', async () => {
    await expect(resolveAllowedPath(join(root, 'docs'), [root])).resolves.toMatch(/root\/docs$/);
    await expect(resolveAllowedPath(outside, [root])).rejects.toThrow(/outside the folders/);
    await expect(resolveAllowedPath(join(root, 'escape'), [root])).rejects.toThrow(/outside the folders/);
    await expect(resolveAllowedPath(join(root, 'docs', '..', '..', 'outside'), [root])).rejects.toThrow(
      /outside/,
    );
    await expect(resolveAllowedPath(join(root, 'missing'), [root])).rejects.toThrow(/does not exist/);
    await expect(resolveAllowedPath(root, [])).rejects.toThrow(/TROVE_FOLDER_ROOTS/);
  });
});
