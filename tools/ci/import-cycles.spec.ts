import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles';

const ROOT = join(__dirname, '../..');

describe('import cycles', () => {
  it('there are none in the catalog and search libs, type-only imports included', () => {
    expect(importCycles(['libs/catalog/src', 'libs/search/src'], ROOT)).toEqual([]);
  });

  it('a port importing a record type from its implementation is one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      writeFileSync(
        join(dir, 'thing.ports.ts'),
        "import type { Thing } from './thing';\nexport interface Things { get(): Thing }\n",
      );
      writeFileSync(
        join(dir, 'thing.ts'),
        "import type { Things } from './thing.ports';\nexport interface Thing { id: string }\nexport type T = Things;\n",
      );
      writeFileSync(join(dir, 'other.ts'), "import type { Thing } from './thing';\nexport type O = Thing;\n");
      expect(importCycles([dir], dir)).toEqual([['thing.ports.ts', 'thing.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
