import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');

describe('the schema the clients are typed against', () => {
  it('is the api schema as committed (npm run build:dashboard regenerates it and the types)', () => {
    // In its own process: Nest builds the schema with graphql's CommonJS build, vitest loads the ESM one.
    const printed = execFileSync('node', ['-r', '@swc-node/register', 'apps/api/src/print-schema.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(printed).toBe(readFileSync(join(ROOT, 'libs/api-client/schema.graphql'), 'utf8'));
    // Starting a Node process that compiles and boots the api's modules takes 3 s idle and more
    // on a loaded machine; the default 5 s is not about this test's subject.
  }, 60_000);
});
