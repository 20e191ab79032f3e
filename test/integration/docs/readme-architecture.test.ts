import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/services';

// The architecture table (docs/architecture.md) is how a newcomer finds their way: every Nx project under apps/,
// libs/, tools/ and test/support has its row, and no row names a folder that is gone.
function projectsUnder(folder: string): string[] {
  if (existsSync(join(ROOT, folder, 'project.json'))) return [folder];
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'src')
    .flatMap((entry) => projectsUnder(`${folder}/${entry.name}`));
}
const projects = [
  ...projectsUnder('apps'),
  ...projectsUnder('libs'),
  ...projectsUnder('tools'),
  ...projectsUnder('test/support'),
].sort();

function tableFolders(): string[] {
  const readme = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  return [...readme.matchAll(/^\| `((?:apps|libs|tools|test\/support)(?:\/[\w/-]+)?)`\s+\|/gm)]
    .map((m) => m[1])
    .sort();
}

describe('the architecture table (docs/architecture.md)', () => {
  it('has a row for every app and lib, and none for a folder that is not a project', () => {
    expect(projects.length).toBeGreaterThan(20);
    expect(tableFolders()).toEqual(projects);
  });
});
