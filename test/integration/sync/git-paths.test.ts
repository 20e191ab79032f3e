import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Source, SourceStatus } from '@trove/domain';
import { createSourceConnectors, createSourceDefinitions } from '@trove/source-definitions';
import { LocalBlobStore } from '@trove/storage';

/**
 * Repository paths inside TROVE_FOLDER_ROOTS that would make git read a repository outside them:
 * a `.git` file, a worktree's `commondir`, object alternates (bare, non-bare, chained), HTTP
 * alternates, a linked `objects` folder. Each is accepted by the API (the path is inside the
 * roots) and refused by the worker before its first fetch, with a clear error; nothing of the
 * outside repository is listed. A repository sharing objects with another inside the roots syncs.
 */
const base = mkdtempSync(join(tmpdir(), 'trove-git-paths-'));
const roots = join(base, 'roots');
const outside = join(base, 'outside');
const settings = {
  folders: { roots: [roots], cacheDir: join(base, 'folder-cache') },
};
const env = { TROVE_GIT_CACHE_DIR: join(base, 'git-cache') };
const connectors = createSourceConnectors(settings, { blobs: new LocalBlobStore(join(base, 'blobs')) }, env);
const definitions = createSourceDefinitions(settings, env);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@trove.invalid', ...args], {
    cwd,
    env: { PATH: process.env['PATH'], HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
}

/** A repository with one commit of `files`, its work tree at `dir`. */
function repository(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '--initial-branch=main');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'files');
}

/** The source as the API configures it (the path is checked against the roots there) and the worker reads it. */
async function source(path: string): Promise<Source> {
  const config = await definitions.configure('GIT', { url: path }, () => {
    throw new Error('no secrets here');
  });
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    projectId: randomUUID(),
    type: 'GIT',
    name: 'repo',
    status: SourceStatus.ACTIVE,
    config,
    createdAt: now,
    updatedAt: now,
  } as Source;
}

async function discover(path: string) {
  const s = await source(path);
  return connectors.for(s).discover(s, { known: new Set() });
}

beforeAll(() => {
  mkdirSync(roots, { recursive: true });
  repository(join(outside, 'secret'), { 'secret.md': '# Outside\n\nThe vault code is 4-8-15-16.\n' });
  git(outside, 'clone', '-q', '--bare', 'secret', 'secret.git');
  repository(join(roots, 'good'), { 'guide.md': '# Guide\n\nInside the roots.\n' });
  git(roots, 'clone', '-q', '--bare', 'good', 'good.git');

  // A `.git` file pointing outside.
  mkdirSync(join(roots, 'gitfile'));
  writeFileSync(join(roots, 'gitfile', '.git'), `gitdir: ${join(outside, 'secret', '.git')}\n`);

  // A worktree whose git folder is inside the roots, its commondir outside.
  git(join(outside, 'secret'), 'worktree', 'add', '-q', join(outside, 'wt'), '-b', 'wt');
  cpSync(join(outside, 'secret', '.git', 'worktrees', 'wt'), join(roots, 'wt-git'), { recursive: true });
  writeFileSync(join(roots, 'wt-git', 'commondir'), `${join(outside, 'secret', '.git')}\n`);
  mkdirSync(join(roots, 'wt'));
  writeFileSync(join(roots, 'wt', '.git'), `gitdir: ${join(roots, 'wt-git')}\n`);

  // Object alternates: a bare clone, a working clone, and a chain through a repository inside.
  git(roots, 'clone', '-q', '--bare', '--shared', join(outside, 'secret.git'), 'alternates.git');
  git(roots, 'clone', '-q', '--shared', join(outside, 'secret.git'), 'alternates-work');
  git(roots, 'clone', '-q', '--bare', '--shared', join(outside, 'secret.git'), 'middle.git');
  git(roots, 'clone', '-q', '--bare', '--shared', join(roots, 'middle.git'), 'chain.git');

  // HTTP alternates, and an objects folder that is a link outside.
  git(roots, 'clone', '-q', '--bare', 'good', 'http-alternates.git');
  writeFileSync(
    join(roots, 'http-alternates.git', 'objects', 'info', 'http-alternates'),
    'http://evil.invalid/objects\n',
  );
  git(roots, 'clone', '-q', '--bare', 'good', 'linked.git');
  rmSync(join(roots, 'linked.git', 'objects'), { recursive: true });
  symlinkSync(join(outside, 'secret.git', 'objects'), join(roots, 'linked.git', 'objects'));

  // Sharing objects inside the roots is fine.
  git(roots, 'clone', '-q', '--bare', '--shared', join(roots, 'good.git'), 'shared.git');
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a Git repository path inside the roots that reads outside them', () => {
  it.each([
    ['gitfile', /through its \.git file \(gitdir: .*outside\/secret\/\.git\)/],
    ['wt', /through its common git folder \(commondir; git rev-parse --git-common-dir\)/],
    [
      'alternates.git',
      /through its object alternates \(objects\/info\/alternates: .*outside\/secret\.git\/objects\)/,
    ],
    [
      'alternates-work',
      /through its object alternates \(objects\/info\/alternates: .*outside\/secret\.git\/objects\)/,
    ],
    [
      'chain.git',
      /through its object alternates \(.*middle\.git\/objects\/info\/alternates: .*outside\/secret\.git\/objects\)/,
    ],
    ['linked.git', /makes git read .*outside\/secret\.git\/objects, .* through its objects folder/],
  ])('%s is refused before the first fetch, with a clear error', async (name, why) => {
    const error = (await discover(join(roots, name)).catch((e: unknown) => e)) as Error & {
      code: string;
      permanent: boolean;
    };
    expect(error).toMatchObject({ code: 'BAD_REQUEST', permanent: true });
    expect(error.message).toMatch(
      new RegExp(
        `^the repository at .*roots/${name.replace('.', '\\.')} makes git read .*outside.*, outside the folders sources may read \\(TROVE_FOLDER_ROOTS\\), `,
      ),
    );
    expect(error.message).toMatch(why);
    expect(error.message).toMatch(/: Trove refuses it$/);
  });

  it('HTTP alternates are refused', async () => {
    await expect(discover(join(roots, 'http-alternates.git'))).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/names HTTP alternates \(objects\/info\/http-alternates\)/),
    });
  });

  it('a repository (bare or not) whose objects stay inside the roots syncs', async () => {
    for (const name of ['good', 'good.git', 'shared.git']) {
      const listing = await discover(join(roots, name));
      expect(
        listing.items.map((item) => item.externalId),
        name,
      ).toEqual(['guide.md']);
    }
    // Only these three got a clone: the refused ones never got as far as an empty one.
    expect(readdirSync(join(base, 'git-cache', 'repos'))).toHaveLength(3);
  });
});
