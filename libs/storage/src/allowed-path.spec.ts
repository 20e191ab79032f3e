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
    await expect(resolveAllowedPath(outside, [root])).rejects.toThrow(
      /not an existing file or folder inside the folders/,
    );
    await expect(resolveAllowedPath(join(root, 'escape'), [root])).rejects.toThrow(
      /not an existing file or folder inside the folders/,
    );
    await expect(resolveAllowedPath(join(root, 'docs', '..', '..', 'outside'), [root])).rejects.toThrow(
      /inside the folders/,
    );
    await expect(resolveAllowedPath(join(root, 'missing'), [root])).rejects.toThrow(
      /not an existing file or folder/,
    );
    await expect(resolveAllowedPath(root, [])).rejects.toThrow(/TROVE_FOLDER_ROOTS/);
  });

  it('answers the same for a path outside the roots whether it exists or not', async () => {
    const message = async (path: string) =>
      resolveAllowedPath(path, [root]).then(
        () => 'accepted',
        (error: Error) => error.message.replace(path, '<path>'),
      );
    const existing = await message(join(outside, 'secret.md'));
    expect(existing).toBe(
      '<path> is not an existing file or folder inside the folders sources may read (TROVE_FOLDER_ROOTS)',
    );
    expect(await message(join(outside, 'nothing-here.md'))).toBe(existing);
    expect(await message('/etc/passwd')).toBe(existing);
    expect(await message('/no/such/path')).toBe(existing);
    expect(await message(join(root, 'escape', 'secret.md'))).toBe(existing);
    expect(await message(join(root, 'escape', 'nothing-here.md'))).toBe(existing);
    expect(await message(join(root, 'missing'))).toBe(existing);
    expect(existing).not.toContain(root);
  });
});
