import { readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isTroveError, TroveError, TroveErrorCode } from '@trove/domain';
import { resolveAllowedPath } from '@trove/storage';

/** Runs git in a folder (with discovery stopped at its parent) and returns its standard output. */
export type GitIn = (cwd: string, args: string[]) => Promise<string>;

/** Alternates of alternates are followed this deep, as git does. */
const MAX_ALTERNATE_DEPTH = 5;

/**
 * Refuses a server-side repository (inside the allowed roots) that makes git read files outside
 * them: a `.git` file (`gitdir: …`) or a `commondir` pointing elsewhere, an `objects` folder that
 * is a link out, `objects/info/alternates` (of a bare repository, and of the alternates
 * themselves) naming object stores outside, or HTTP alternates. Run before the first fetch and
 * before every one after: the files may change. `git rev-parse --git-dir --git-common-dir` says
 * where git itself will look; a `.git` file is read first, so git never opens a repository
 * outside the roots even to say where it is.
 */
export async function checkLocalRepository(
  path: string,
  roots: readonly string[],
  git: GitIn,
): Promise<void> {
  const repository = await resolveAllowedPath(path, [...roots]);
  const inside = async (candidate: string, what: string) => {
    try {
      await resolveAllowedPath(candidate, [...roots]);
    } catch (error) {
      if (!isTroveError(error)) throw error;
      // Named by where it leads (a link's target), when it exists.
      throw outside(path, what, await realpath(candidate).catch(() => candidate));
    }
  };

  const gitFile = await readFile(join(repository, '.git'), 'utf8').catch(() => undefined);
  if (gitFile !== undefined) {
    const target = /^gitdir: (.+)$/m.exec(gitFile)?.[1]?.trim();
    if (target) await inside(resolve(repository, target), `its .git file (gitdir: ${target})`);
  }

  const [gitDir, commonDir] = (
    await git(repository, ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'])
  )
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (!gitDir || !commonDir) {
    throw new TroveError(TroveErrorCode.BadRequest, `no Git repository at ${path}`, { permanent: true });
  }
  await inside(gitDir, 'its git folder (git rev-parse --git-dir)');
  await inside(commonDir, 'its common git folder (commondir; git rev-parse --git-common-dir)');

  const objects = join(commonDir, 'objects');
  await inside(objects, 'its objects folder');
  const httpAlternates = await readFile(join(objects, 'info', 'http-alternates'), 'utf8').catch(
    () => undefined,
  );
  if (httpAlternates?.trim()) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `the repository at ${path} names HTTP alternates (objects/info/http-alternates): Trove reads no objects from elsewhere; remove the file`,
      { permanent: true },
    );
  }
  const seen = new Set<string>();
  const follow = async (store: string, depth: number): Promise<void> => {
    const key = await realpath(store).catch(() => store);
    if (seen.has(key) || depth > MAX_ALTERNATE_DEPTH) return;
    seen.add(key);
    const list = await readFile(join(store, 'info', 'alternates'), 'utf8').catch(() => undefined);
    for (const entry of alternates(list ?? '')) {
      const target = isAbsolute(entry) ? entry : resolve(store, entry);
      await inside(
        target,
        `its object alternates (${relativeName(commonDir, store)}/info/alternates: ${entry})`,
      );
      await follow(target, depth + 1);
    }
  };
  await follow(objects, 0);
}

/** The object stores an `alternates` file names: one per line, `#` comments, C-quoted when quoted. */
function alternates(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) =>
      line.startsWith('"') && line.endsWith('"') && line.length > 1
        ? line.slice(1, -1).replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char))
        : line,
    );
}

function relativeName(commonDir: string, store: string): string {
  return store.startsWith(commonDir) ? store.slice(commonDir.length + 1) || '.' : store;
}

function outside(path: string, what: string, target: string): TroveError {
  return new TroveError(
    TroveErrorCode.BadRequest,
    `the repository at ${path} makes git read ${target}, outside the folders sources may read ` +
      `(TROVE_FOLDER_ROOTS), through ${what}: Trove refuses it`,
    { permanent: true },
  );
}

/** The environment that stops git's repository discovery at `cwd`'s parent. */
export function discoveryStoppedAt(cwd: string): Record<string, string> {
  return { GIT_CEILING_DIRECTORIES: dirname(cwd) };
}
