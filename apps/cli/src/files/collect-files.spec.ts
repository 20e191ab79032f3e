import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectFiles } from './collect-files';

describe('collectFiles', () => {
  it('takes the supported files of folders, skips the rest with a reason, and keeps named files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'trove-cli-files-'));
    mkdirSync(join(root, 'docs', 'deep'), { recursive: true });
    mkdirSync(join(root, 'docs', '.git'));
    writeFileSync(join(root, 'docs', 'b.md'), '# B');
    writeFileSync(join(root, 'docs', 'a.PDF'), '%PDF-1.7');
    writeFileSync(join(root, 'docs', 'deep', 'c.html'), '<h1>C</h1>');
    writeFileSync(join(root, 'docs', 'logo.png'), 'png');
    writeFileSync(join(root, 'docs', 'style.css'), 'body {}');
    writeFileSync(join(root, 'docs', 'deep', 'budget.xlsx'), 'PK');
    writeFileSync(join(root, 'docs', 'deep', 'cities.csv'), 'a,b');
    writeFileSync(join(root, 'docs', 'deep', 'talk.pptx'), 'PK');
    writeFileSync(join(root, 'docs', 'deep', 'notes.odt'), 'PK');
    writeFileSync(join(root, 'docs', '.git', 'config'), 'x');
    writeFileSync(join(root, 'README'), 'plain text without an extension');

    const { files, skipped } = await collectFiles([
      join(root, 'docs'),
      join(root, 'README'),
      join(root, 'missing.md'),
    ]);
    expect(files.map((f) => f.path.slice(root.length + 1))).toEqual([
      'docs/a.PDF',
      'docs/b.md',
      'docs/deep/budget.xlsx',
      'docs/deep/c.html',
      'docs/deep/cities.csv',
      'docs/deep/notes.odt',
      'docs/deep/talk.pptx',
      'docs/logo.png',
      'README',
    ]);
    expect(files[1]!.sizeBytes).toBe(3);
    expect(skipped.map((s) => s.path.slice(root.length + 1))).toEqual(['docs/style.css', 'missing.md']);
    expect(skipped[0]!.reason).toMatch(/\.css: not a type Trove reads/);
    expect(skipped[1]!.reason).toMatch(/ENOENT/);
  });
});
