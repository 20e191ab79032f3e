import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, chooseBenchmarks, usage } from './bench-run';

describe('npm run bench -- --only', () => {
  it('runs every benchmark without --only, and only the named ones with it, in the registry order', () => {
    expect(chooseBenchmarks(undefined)).toEqual(BENCHMARKS);
    expect(chooseBenchmarks('files,notion-requests').map((b) => b.name)).toEqual([
      'notion-requests',
      'files',
    ]);
  });

  it('refuses an unknown name and says which names exist', () => {
    expect(() => chooseBenchmarks('notion-request')).toThrow(
      'unknown benchmark notion-request; choose from pipeline, notion, notion-requests, files, catalog, scale, search-scale, query-lane, fair-share, large-documents',
    );
    expect(() => chooseBenchmarks(',')).toThrow(/\(none given\)/);
  });

  it('names scripts that exist (run from the repository root), and lists them under --help', () => {
    const root = join(__dirname, '..', '..');
    expect(BENCHMARKS.filter((b) => !existsSync(join(root, b.script))).map((b) => b.script)).toEqual([]);
    for (const b of BENCHMARKS) expect(usage()).toContain(b.script);
  });
});
