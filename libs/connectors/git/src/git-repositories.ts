import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import {
  isSealedSecret,
  type SealedSecret,
  type SecretOpener,
  sourceUnauthorized,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { type GitCommand, GitCommandError, runGit } from './git-cli';
import type { GitSettings } from './git.settings';
import { type GitSource, transportOf } from './git-source';
import { parseTree, sparsePattern } from './git-tree';
import { checkLocalRepository, discoveryStoppedAt } from './local-repository';

/** A source's clone, checked out (detached) at the synced commit of its branch. */
export interface Checkout {
  dir: string;
  branch: string;
  commit: string;
}

export interface UpdateOptions {
  /**
   * Files larger than this are left out of the checkout (sparse checkout): a document over the
   * size limit is never written to this machine's disk, whatever the repository's pack holds.
   */
  maxBlobBytes?: number;
}

const MB = 1024 * 1024;
/** Marks when a clone was last used, for the cache's least-recently-used eviction. */
const USED_MARK = 'trove-used';

/**
 * Shallow clones of Git sources, one folder per source under the cache root, kept up to date by
 * `update` (a depth-1 fetch of the branch, then a forced checkout: force-pushes and branch
 * switches need nothing more). Clones beyond the cache's size are removed, least recently used
 * first. Commands of one source run one at a time.
 */
export class GitRepositories {
  private readonly root: string;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: GitSettings,
    private readonly secrets?: SecretOpener,
    /** Server-side folders a repository path may be in (TROVE_FOLDER_ROOTS). */
    private readonly folderRoots: readonly string[] = [],
  ) {
    this.root = resolve(settings.cacheDir);
  }

  /**
   * Fetches the branch's head and checks it out, files over `maxBlobBytes` left out; fails
   * (permanent) when the clone is over the source's limit, or a server path would make git read
   * outside the roots.
   */
  update(source: GitSource, options: UpdateOptions = {}): Promise<Checkout> {
    return this.locked(source.id, async () => {
      const dir = this.dir(source.id);
      // The private HOME: ssh remembers host keys there.
      await mkdir(join(this.root, 'home'), { recursive: true, mode: 0o700 });
      if (transportOf(source.config.url) === 'local') await this.checkLocal(source);
      const auth = await this.auth(source);
      try {
        if (!existsSync(join(dir, '.git'))) {
          await rm(dir, { recursive: true, force: true });
          await mkdir(dir, { recursive: true });
          await this.git({ args: ['init', '-q', dir] });
          await this.git({ args: ['-C', dir, 'remote', 'add', 'origin', remoteUrl(source)] });
        } else {
          await this.git({ args: ['-C', dir, 'remote', 'set-url', 'origin', remoteUrl(source)] });
        }
        const branch = source.config.branch ?? (await this.defaultBranch(dir, auth));
        const ref = `refs/remotes/origin/${branch}`;
        await this.git({
          args: [
            '-C',
            dir,
            'fetch',
            '-q',
            '--depth',
            '1',
            '--no-tags',
            'origin',
            `+refs/heads/${branch}:${ref}`,
          ],
          ...auth,
        });
        await this.checkSize(source, dir);
        await this.sparse(source, dir, ref, options.maxBlobBytes);
        await this.git({ args: ['-C', dir, 'checkout', '-q', '--force', '--detach', ref] });
        const commit = (await this.git({ args: ['-C', dir, 'rev-parse', 'HEAD'] })).toString().trim();
        await this.markUsed(dir);
        await this.evict(source.id);
        return { dir, branch, commit };
      } catch (error) {
        throw classify(error, source);
      } finally {
        await auth.cleanup();
      }
    });
  }

  /** The clone as the last update left it (another worker machine, or an evicted one: updated now). */
  async current(source: GitSource, options: UpdateOptions = {}): Promise<Checkout> {
    const dir = this.dir(source.id);
    const known = await this.locked(source.id, async () => {
      if (!existsSync(join(dir, '.git'))) return undefined;
      try {
        const commit = (await this.git({ args: ['-C', dir, 'rev-parse', '--verify', '-q', 'HEAD'] }))
          .toString()
          .trim();
        await this.markUsed(dir);
        return { dir, branch: source.config.branch ?? '', commit };
      } catch {
        return undefined;
      }
    });
    return known ?? this.update(source, options);
  }

  /** Runs git in a source's clone. */
  run(source: GitSource, args: string[], maxBytes?: number, input?: Buffer): Promise<Buffer> {
    return this.git({ args: ['-C', this.dir(source.id), ...args], maxBytes, input });
  }

  /** Removes a source's clone. */
  forget(sourceId: string): Promise<void> {
    return this.locked(sourceId, () => rm(this.dir(sourceId), { recursive: true, force: true }));
  }

  private dir(sourceId: string): string {
    const dir = resolve(this.root, 'repos', sourceId);
    if (!dir.startsWith(join(this.root, 'repos') + sep) || sourceId.includes('/')) {
      throw new Error(`invalid source id ${JSON.stringify(sourceId)}`);
    }
    return dir;
  }

  private git(command: GitCommand): Promise<Buffer> {
    return runGit(
      { binary: this.settings.binary, timeoutMs: this.settings.timeoutMs, home: join(this.root, 'home') },
      command,
    );
  }

  private async defaultBranch(dir: string, auth: Auth): Promise<string> {
    const out = (await this.git({ args: ['-C', dir, 'ls-remote', '--symref', 'origin', 'HEAD'], ...auth }))
      .toString()
      .split('\n');
    const head = out.map((line) => /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line)?.[1]).find(Boolean);
    if (!head) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'the remote has no default branch (an empty repository?): set `branch`',
        { permanent: true },
      );
    }
    return head;
  }

  /** Credentials for a command, through the environment (never the URL or the command line). */
  private async auth(source: GitSource): Promise<Auth> {
    const { token, deployKey, username } = source.config;
    const none: Auth = { env: {}, secrets: [], cleanup: async () => undefined };
    if (token === undefined && deployKey === undefined) return none;
    if (token !== undefined) {
      const plain = this.open(token, 'token');
      const basic = Buffer.from(`${username ?? 'x-access-token'}:${plain}`).toString('base64');
      return {
        env: {
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: 'http.extraHeader',
          GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
        },
        secrets: [plain, basic],
        cleanup: none.cleanup,
      };
    }
    const key = this.open(deployKey!, 'deployKey');
    const keyDir = await mkdtemp(join(this.root, 'home', 'key-'));
    const keyFile = join(keyDir, 'id');
    await writeFile(keyFile, key.endsWith('\n') ? key : `${key}\n`, { mode: 0o600 });
    await chmod(keyFile, 0o600);
    const knownHosts = join(this.root, 'home', 'known_hosts');
    return {
      env: {
        GIT_SSH_COMMAND: [
          'ssh',
          `-i '${keyFile}'`,
          '-o IdentitiesOnly=yes',
          '-o StrictHostKeyChecking=accept-new',
          `-o UserKnownHostsFile='${knownHosts}'`,
          '-o BatchMode=yes',
        ].join(' '),
      },
      secrets: [key],
      cleanup: () => rm(keyDir, { recursive: true, force: true }),
    };
  }

  private open(secret: SealedSecret, field: string): string {
    if (!this.secrets) {
      throw new TroveError(
        TroveErrorCode.Internal,
        `TROVE_SECRET_KEY is not set on the worker, so the source's ${field} cannot be decrypted`,
        { permanent: true },
      );
    }
    if (!isSealedSecret(secret)) throw sourceUnauthorized(`the source's ${field} is not stored sealed`);
    try {
      return this.secrets.decrypt(secret.sealed);
    } catch {
      throw sourceUnauthorized(
        `the source's ${field} cannot be decrypted with this TROVE_SECRET_KEY (was the key changed?); set it again with updateSource`,
      );
    }
  }

  private async checkSize(source: GitSource, dir: string): Promise<void> {
    const counts = (await this.git({ args: ['-C', dir, 'count-objects', '-v'] })).toString();
    const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(counts)?.[1] ?? 0);
    const mb = (kib('size') + kib('size-pack')) / 1024;
    if (mb > source.config.maxRepositoryMb) {
      await rm(dir, { recursive: true, force: true });
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the repository is ${Math.ceil(mb)} MB at its branch head, over the source's maxRepositoryMb ` +
          `(${source.config.maxRepositoryMb}); raise it, or point the source at a smaller repository`,
        { permanent: true },
      );
    }
  }

  /**
   * Sets the sparse checkout of the fetched tree: every file but those over `maxBlobBytes`, whose
   * size `ls-tree` tells without reading them. The files checked out must fit the source's
   * `maxRepositoryMb` too: a small pack can hold a tree that expands to gigabytes.
   */
  private async sparse(
    source: GitSource,
    dir: string,
    ref: string,
    maxBlobBytes = Number.POSITIVE_INFINITY,
  ): Promise<void> {
    const tree = parseTree(
      await this.git({ args: ['-C', dir, 'ls-tree', '-r', '-l', '-z', '--full-tree', ref] }),
    );
    const blobs = tree.filter((entry) => entry.type === 'blob');
    const left = blobs.filter((entry) => entry.size > maxBlobBytes);
    const mb = blobs.filter((entry) => entry.size <= maxBlobBytes).reduce((n, e) => n + e.size, 0) / MB;
    if (mb > source.config.maxRepositoryMb) {
      await rm(dir, { recursive: true, force: true });
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the files of the branch head are ${Math.ceil(mb)} MB together (files over the document size ` +
          `limit left out), over the source's maxRepositoryMb (${source.config.maxRepositoryMb}); raise ` +
          `it, narrow the source, or point it at a smaller repository`,
        { permanent: true },
      );
    }
    // Non-cone patterns: everything, then each file left out, anchored and escaped.
    const patterns = ['/*', ...left.map((entry) => `!/${sparsePattern(entry.path)}`)];
    await mkdir(join(dir, '.git', 'info'), { recursive: true });
    await writeFile(join(dir, '.git', 'info', 'sparse-checkout'), `${patterns.join('\n')}\n`);
    await this.git({ args: ['-C', dir, 'config', 'core.sparseCheckout', 'true'] });
    await this.git({ args: ['-C', dir, 'config', 'core.sparseCheckoutCone', 'false'] });
  }

  /** A server path: inside the roots, and reading nothing outside them (see checkLocalRepository). */
  private checkLocal(source: GitSource): Promise<void> {
    const path = source.config.url.replace(/^file:\/\//, '');
    return checkLocalRepository(path, this.folderRoots, async (cwd, args) =>
      (await this.git({ args, cwd, env: discoveryStoppedAt(cwd) })).toString('utf8'),
    );
  }

  private async markUsed(dir: string): Promise<void> {
    const mark = join(dir, '.git', USED_MARK);
    const now = new Date();
    await utimes(mark, now, now).catch(() => writeFile(mark, ''));
  }

  /** Removes the least recently used clones (never `keep`, nor one in use) until the cache fits. */
  private async evict(keep: string): Promise<void> {
    const reposDir = join(this.root, 'repos');
    const clones = await Promise.all(
      (await readdir(reposDir)).map(async (id) => ({
        id,
        bytes: await folderBytes(join(reposDir, id)),
        usedAt: (await stat(join(reposDir, id, '.git', USED_MARK)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
    );
    let total = clones.reduce((sum, clone) => sum + clone.bytes, 0);
    for (const clone of clones.sort((a, b) => a.usedAt - b.usedAt)) {
      if (total <= this.settings.cacheMaxMb * MB) break;
      if (clone.id === keep || this.locks.has(clone.id)) continue;
      await rm(join(reposDir, clone.id), { recursive: true, force: true });
      total -= clone.bytes;
    }
  }

  private locked<T>(sourceId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(sourceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    const settled = next.catch(() => undefined);
    this.locks.set(sourceId, settled);
    void settled.then(() => {
      if (this.locks.get(sourceId) === settled) this.locks.delete(sourceId);
    });
    return next;
  }
}

interface Auth {
  env: Record<string, string>;
  secrets: string[];
  cleanup(): Promise<void>;
}

/** The remote as git reaches it: server paths as `file://` (so `--depth` applies). */
function remoteUrl(source: GitSource): string {
  return transportOf(source.config.url) === 'local' && !source.config.url.startsWith('file://')
    ? `file://${source.config.url}`
    : source.config.url;
}

/** A git failure as the sync's failure vocabulary: refused credentials, a wrong remote or branch, or transient. */
function classify(error: unknown, source: GitSource): unknown {
  if (!(error instanceof GitCommandError)) return error;
  const text = error.stderr;
  if (error.timedOut)
    return new TroveError(TroveErrorCode.SourceUnreachable, error.message, { cause: error });
  if (
    /authentication failed|could not read (username|password)|terminal prompts disabled|returned error: 40[13]|HTTP 40[13]|permission denied \(publickey|invalid username or password|access denied/i.test(
      text,
    )
  ) {
    // git's own lines here are about its prompts (askpass, terminal), not the cause: left to `cause`.
    const given = source.config.token ? 'token' : source.config.deployKey ? 'deploy key' : 'none given';
    return sourceUnauthorized(
      `the Git remote refused Trove's credentials (${given}): check that they are valid and may read ` +
        `the repository`,
      error,
    );
  }
  if (/host key verification failed|remote host identification has changed/i.test(text)) {
    return new TroveError(
      TroveErrorCode.BadRequest,
      `the ssh host key of the remote changed since Trove first connected; if that is expected, remove ` +
        `known_hosts under the Git cache's home folder: ${error.message}`,
      { permanent: true, cause: error },
    );
  }
  if (/could not fetch \S+ from promisor remote|lazy fetching disabled/i.test(text)) {
    // A partial clone missing objects it may not fetch from its own remote: fetching again cannot help.
    return new TroveError(
      TroveErrorCode.BadRequest,
      `the repository is a partial clone whose missing objects cannot be fetched from its promisor ` +
        `remote: ${error.message}`,
      { permanent: true, cause: error },
    );
  }
  if (/couldn't find remote ref|remote branch .* not found/i.test(text)) {
    return new TroveError(
      TroveErrorCode.BadRequest,
      `the branch ${source.config.branch ?? ''} does not exist in the repository: ${error.message}`,
      { permanent: true, cause: error },
    );
  }
  if (
    /repository .*not found|does not appear to be a git repository|returned error: 404|not a git repository/i.test(
      text,
    )
  ) {
    return new TroveError(
      TroveErrorCode.BadRequest,
      `no Git repository at the source's URL: ${error.message}`,
      {
        permanent: true,
        cause: error,
      },
    );
  }
  return new TroveError(TroveErrorCode.SourceUnreachable, error.message, { cause: error });
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length) {
    const current = pending.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true }).catch(() => [])) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) total += (await stat(path).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}
