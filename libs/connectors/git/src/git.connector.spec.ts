import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Discovery, isTroveError, type SecretOpener, SourceStatus, TroveErrorCode } from '@trove/domain';
import { PARSED_JSON_MEDIA_TYPE } from '@trove/parsing';
import { GitConnector } from './git.connector';
import { GitTestServer, type TestRepository } from './git-server.testing';
import { GIT_SOURCE_TYPE, type GitSource, type GitSourceConfig } from './git-source';
import { gitSettingsSchema } from './git.settings';

/** Sealed secrets of the tests are the plain value behind a prefix. */
const secrets: SecretOpener = {
  decrypt: (sealed) => {
    if (!sealed.startsWith('sealed:')) throw new Error('not sealed with this key');
    return sealed.slice('sealed:'.length);
  },
};
const seal = (plain: string) => ({ sealed: `sealed:${plain}`, hint: '…' });

let server: GitTestServer;
let cacheDir: string;
let connector: GitConnector;
let sources = 0;

beforeAll(async () => {
  server = await new GitTestServer().start();
  cacheDir = mkdtempSync(join(tmpdir(), 'trove-git-cache-'));
  connector = new GitConnector(
    gitSettingsSchema.parse({ TROVE_GIT_CACHE_DIR: cacheDir, TROVE_GIT_TIMEOUT_MS: '60000' }),
    secrets,
    [server.projectRoot],
  );
});

afterAll(async () => {
  await server?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

function source(url: string, config: Partial<GitSourceConfig> = {}): GitSource {
  const now = new Date().toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(++sources).padStart(12, '0')}`,
    projectId: '00000000-0000-4000-8000-000000000000',
    name: 'docs',
    status: SourceStatus.ACTIVE,
    type: GIT_SOURCE_TYPE,
    config: { url, exclude: [], maxRepositoryMb: 500, ...config },
    createdAt: now,
    updatedAt: now,
  };
}

const discover = (s: GitSource) => connector.discover(s, { known: new Set() });
const versions = (d: Discovery) => Object.fromEntries(d.items.map((i) => [i.externalId, i.version]));
const commitOf = (d: Discovery) => d.watermark!.split(' ')[1];

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: Error) => error,
  );
}

describe('the Git connector against a real git http-backend', () => {
  let repo: TestRepository;
  let synced: GitSource;

  it('lists every supported file of the default branch at its head, with blob ids as versions', async () => {
    repo = server.repository('handbook');
    repo.write({
      'README.md': '# Handbook\n\nWelcome.\n',
      'docs/guide.md': '# Guide\n\n## Install\n\nRun it.\n',
      'notes.txt': 'plain text\n',
      'logo.png': 'not indexed',
      'src/main.ts': 'export {};\n',
    });
    const head = repo.commit('first');
    synced = source(repo.httpUrl, { forge: 'github' });
    const first = await discover(synced);
    expect(first.complete).toBe(true);
    expect(commitOf(first)).toBe(head);
    expect(Object.keys(versions(first)).sort()).toEqual(['README.md', 'docs/guide.md', 'notes.txt']);
    expect(versions(first)['README.md']).toBe(repo.git('rev-parse', 'HEAD:README.md').trim());

    const guide = await connector.fetch(synced, 'docs/guide.md');
    expect(guide.data.toString()).toContain('## Install');
    expect(guide.version).toBe(versions(first)['docs/guide.md']);
    // The forge's file view at the synced commit; the chunk's heading anchor is added by the ingest.
    expect(guide.url).toBe(
      `${server.httpUrl.replace('http://', 'https://')}/handbook/blob/${head}/docs/guide.md`,
    );
  });

  it('after a commit that edits, renames and deletes, lists exactly the new state', async () => {
    const before = versions(await discover(synced));
    repo.write({ 'README.md': '# Handbook\n\nWelcome, again.\n' });
    repo.git('mv', 'docs/guide.md', 'docs/manual.md');
    repo.git('rm', '-q', 'notes.txt');
    repo.commit('edit, rename, delete');
    const after = versions(
      await connector.discover(synced, { since: 'x', known: new Set(Object.keys(before)) }),
    );
    expect(Object.keys(after).sort()).toEqual(['README.md', 'docs/manual.md']);
    expect(after['README.md']).not.toBe(before['README.md']);
    // Renamed unchanged: the old path is gone from the listing, the new one has the same content.
    expect(after['docs/manual.md']).toBe(before['docs/guide.md']);
    await expect(connector.fetch(synced, 'docs/guide.md')).rejects.toMatchObject({
      code: TroveErrorCode.SourceItemGone,
    });
  });

  it('follows a force-push that rewrote history', async () => {
    const first = repo.git('rev-list', '--max-parents=0', 'HEAD').trim();
    repo.git('reset', '-q', '--hard', first);
    repo.write({ 'rewritten.md': '# Rewritten\n' });
    const head = repo.commit('rewritten history');
    const listing = await discover(synced);
    expect(commitOf(listing)).toBe(head);
    expect(Object.keys(versions(listing)).sort()).toEqual([
      'README.md',
      'docs/guide.md',
      'notes.txt',
      'rewritten.md',
    ]);
  });

  it('switches branch when the configuration names another one', async () => {
    repo.git('checkout', '-q', '-b', 'next');
    repo.write({ 'next-only.md': '# Next\n' });
    repo.commit('next branch');
    repo.git('checkout', '-q', 'main');
    const next = await discover({ ...synced, config: { ...synced.config, branch: 'next' } });
    expect(versions(next)).toHaveProperty('next-only.md');
    const main = await discover(synced);
    expect(versions(main)).not.toHaveProperty('next-only.md');
    const missing = await failure(discover({ ...synced, config: { ...synced.config, branch: 'nope' } }));
    expect(missing).toMatchObject({ code: TroveErrorCode.BadRequest, permanent: true });
    expect(missing.message).toMatch(/branch nope does not exist/);
  });

  it('warns about submodules and Git LFS pointers instead of skipping them silently', async () => {
    const lfs = server.repository('with-lfs');
    lfs.write({
      'index.md': '# Index\n',
      'manual.pdf': 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 1234567\n',
      '.gitmodules':
        '[submodule "vendor/theme"]\n\tpath = vendor/theme\n\turl = https://example.com/theme.git\n',
    });
    lfs.git('add', '-A');
    lfs.git('update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/theme`);
    // Committed from the index as it is: `add -A` would drop the submodule, absent from the work tree.
    lfs.git('commit', '-q', '-m', 'lfs and a submodule');
    lfs.git('push', '-q', 'origin', 'HEAD');
    const listing = await discover(source(lfs.httpUrl));
    expect(Object.keys(versions(listing))).toEqual(['index.md']);
    expect(listing.skipped).toEqual([{ id: 'manual.pdf', reason: expect.stringMatching(/Git LFS/) }]);
    expect(listing.warnings.join('\n')).toMatch(/1 file\(s\) are Git LFS pointers.*manual\.pdf/);
    expect(listing.warnings.join('\n')).toMatch(
      /1 submodule\(s\) are not synced: vendor\/theme \(aaaaaaaaaaaa\)/,
    );
  });

  it('refuses a repository over its size limit, saying so', async () => {
    const big = server.repository('big');
    big.write({ 'index.md': '# Big\n' });
    big.git('add', '-A');
    // Incompressible: the pack stays over 2 MB.
    writeFileSync(join(big.work, 'blob.bin'), randomBytes(2 * 1024 * 1024));
    big.commit('a large binary');
    const error = await failure(discover(source(big.httpUrl, { maxRepositoryMb: 1 })));
    expect(error).toMatchObject({ code: TroveErrorCode.BadRequest, permanent: true });
    expect(error.message).toMatch(/over the source's maxRepositoryMb \(1\)/);
  });

  it('lists sizes from the tree, never checks out nor reads a file over the size limit, and refuses to fetch it', async () => {
    const sized = server.repository('sized');
    // Compressible: a 3 MB file in a pack of a few KB.
    sized.write({
      'small.md': '# Small\n\nFits.\n',
      'docs/big file [1].txt': 'all work and no play\n'.repeat(150_000),
      'mkdocs-free/other.md': '# Other\n',
    });
    sized.commit('a big text');
    const s = source(sized.httpUrl);
    const listing = await connector.discover(s, { known: new Set(), maxItemBytes: 1_000_000 });
    const big = 'docs/big file [1].txt';
    expect(Object.fromEntries(listing.items.map((i) => [i.externalId, i.sizeBytes]))).toEqual({
      'small.md': 15,
      [big]: 3_150_000,
      'mkdocs-free/other.md': 8,
    });
    const clone = join(cacheDir, 'repos', s.id);
    expect(existsSync(join(clone, 'small.md'))).toBe(true);
    expect(existsSync(join(clone, 'mkdocs-free', 'other.md'))).toBe(true);
    expect(existsSync(join(clone, big))).toBe(false);
    const refused = await failure(connector.fetch(s, big, { maxBytes: 1_000_000 }));
    expect(refused).toMatchObject({
      code: TroveErrorCode.PayloadTooLarge,
      permanent: true,
      message:
        'docs/big file [1].txt has 3,150,000 bytes, over the limit of 1,000,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
    });
    expect((await connector.fetch(s, 'small.md', { maxBytes: 1_000_000 })).data.toString()).toBe(
      '# Small\n\nFits.\n',
    );
    // A higher limit: the file comes back into the checkout, and is read.
    await connector.discover(s, { known: new Set(), maxItemBytes: 4_000_000 });
    expect(existsSync(join(clone, big))).toBe(true);
    expect((await connector.fetch(s, big, { maxBytes: 4_000_000 })).data.length).toBe(3_150_000);
    // What would be checked out counts toward maxRepositoryMb, however small the pack.
    const tight = await failure(
      connector.discover({ ...s, config: { ...s.config, maxRepositoryMb: 2 } }, { known: new Set() }),
    );
    expect(tight).toMatchObject({ code: TroveErrorCode.BadRequest, permanent: true });
    expect(tight.message).toMatch(
      /^the files of the branch head are 4 MB together .* over the source's maxRepositoryMb \(2\)/,
    );
  });

  it('gives an MkDocs project its site URLs', async () => {
    const site = server.repository('site');
    site.write({
      'mkdocs.yml':
        'site_name: Site\nsite_url: https://docs.example.com/\nnav:\n  - Home: index.md\n  - Guide: guide.md\n',
      'docs/index.md': '# Home\n\nHello.\n',
      'docs/guide.md': '# Guide\n\n## Setup\n\nSteps.\n',
      'CHANGELOG.md': '# Changes\n',
    });
    site.commit('site');
    const s = source(site.httpUrl);
    const listing = await discover(s);
    expect(Object.keys(versions(listing)).sort()).toEqual(['CHANGELOG.md', 'docs/guide.md', 'docs/index.md']);
    const guide = await connector.fetch(s, 'docs/guide.md');
    expect(guide.mediaType).toBe(PARSED_JSON_MEDIA_TYPE);
    expect(guide.url).toBe('https://docs.example.com/guide/');
    expect(guide.version).toBe(versions(listing)['docs/guide.md']);
    // Outside the site: no forge is known for this host, so no view link.
    expect((await connector.fetch(s, 'CHANGELOG.md')).url).toBeUndefined();
    // Another worker process (no listing of its own) renders the page the same way.
    const other = new GitConnector(gitSettingsSchema.parse({ TROVE_GIT_CACHE_DIR: cacheDir }), secrets, [
      server.projectRoot,
    ]);
    expect(await other.fetch(s, 'docs/guide.md')).toMatchObject({ url: guide.url, version: guide.version });
    // Exclude patterns apply to the site's pages too.
    const narrowed = await discover({ ...s, config: { ...s.config, exclude: ['docs/guide.md'] } });
    expect(Object.keys(versions(narrowed)).sort()).toEqual(['CHANGELOG.md', 'docs/index.md']);
  });

  describe('with a token', () => {
    afterAll(() => {
      server.token = undefined;
    });

    it('sends the token, and a wrong one is a permanent SOURCE_UNAUTHORIZED that never shows it', async () => {
      const priv = server.repository('private');
      priv.write({ 'secret-plans.md': '# Plans\n' });
      priv.commit('private');
      server.token = 'right-token-1234';
      const good = await discover(source(priv.httpUrl, { token: seal('right-token-1234') }));
      expect(Object.keys(versions(good))).toEqual(['secret-plans.md']);

      const error = await failure(discover(source(priv.httpUrl, { token: seal('wrong-token-5678') })));
      expect(isTroveError(error) && error.code).toBe(TroveErrorCode.SourceUnauthorized);
      expect(isTroveError(error) && error.permanent).toBe(true);
      expect(error.message).toMatch(/refused Trove's credentials \(token\)/);
      // One readable sentence: not git's lines about its prompts.
      expect(error.message).not.toMatch(/askpass|terminal prompts|fatal:/);
      expect(error.message).not.toContain('wrong-token-5678');
      const none = await failure(discover(source(priv.httpUrl)));
      expect(none).toMatchObject({ code: TroveErrorCode.SourceUnauthorized });
    });
  });
});

describe('the Git connector against git daemon and a server path', () => {
  it('syncs a git:// remote', async () => {
    const repo = server.repository('daemon');
    repo.write({ 'a.md': '# A\n' });
    const head = repo.commit('a');
    const listing = await discover(source(repo.daemonUrl));
    expect(commitOf(listing)).toBe(head);
    expect(Object.keys(versions(listing))).toEqual(['a.md']);
  });

  it('syncs a repository path on the server', async () => {
    const repo = server.repository('local');
    repo.write({ 'b.md': '# B\n' });
    repo.commit('b');
    const s = source(repo.bare);
    expect(Object.keys(versions(await discover(s)))).toEqual(['b.md']);
    expect((await connector.fetch(s, 'b.md')).data.toString()).toBe('# B\n');
  });
});

describe('push events', () => {
  it('turn into an INCREMENTAL sync', async () => {
    const s = source('https://github.com/o/r.git');
    const push = { type: 'push', entityId: 'abc', entityType: 'commit', timestamp: new Date().toISOString() };
    expect(await connector.reduceEvents(s, [push])).toEqual({
      ingest: [],
      gone: [],
      ignored: 0,
      resync: true,
    });
    expect((await connector.reduceEvents(s, [{ ...push, type: 'other' }])).resync).toBe(false);
  });
});

describe('ssh with a deploy key', () => {
  it('hands ssh the key in a 0600 file with IdentitiesOnly and accept-new, and removes it after', async () => {
    // A stand-in for ssh that records what it was given, then refuses like a server would.
    const bin = mkdtempSync(join(tmpdir(), 'trove-fake-ssh-'));
    const log = join(bin, 'log');
    writeFileSync(
      join(bin, 'ssh'),
      `#!/bin/sh\necho "$@" > ${log}\nwhile [ $# -gt 0 ]; do if [ "$1" = "-i" ]; then stat -c %a "$2" >> ${log}; cat "$2" >> ${log}; fi; shift; done\necho "git@example.com: Permission denied (publickey)." >&2\nexit 255\n`,
      { mode: 0o755 },
    );
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}:${path}`;
    try {
      const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n-----END OPENSSH PRIVATE KEY-----';
      const error = await failure(
        discover(source('git@example.com:o/r.git', { branch: 'main', deployKey: seal(key) })),
      );
      expect(error).toMatchObject({ code: TroveErrorCode.SourceUnauthorized, permanent: true });
      expect(error.message).toMatch(/refused Trove's credentials \(deploy key\)/);
      const seen = readFileSync(log, 'utf8');
      expect(seen).toMatch(/-o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new/);
      expect(seen).toContain('\n600\n');
      expect(seen).toContain('not-a-real-key');
      expect(readdirSync(join(cacheDir, 'home')).filter((name) => name.startsWith('key-'))).toEqual([]);
    } finally {
      process.env['PATH'] = path;
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('the clone cache', () => {
  it('removes the least recently used clones beyond its size, and clones again when needed', async () => {
    const small = server.repository('cache-small');
    small.write({ 'small.md': '# Small\n' });
    small.commit('small');
    const big = server.repository('cache-big');
    big.write({ 'index.md': '# Big\n' });
    writeFileSync(join(big.work, 'blob.bin'), randomBytes(2 * 1024 * 1024));
    big.commit('big');
    const dir = mkdtempSync(join(tmpdir(), 'trove-git-lru-'));
    const tight = new GitConnector(
      gitSettingsSchema.parse({ TROVE_GIT_CACHE_DIR: dir, TROVE_GIT_CACHE_MAX_MB: '1' }),
      secrets,
    );
    try {
      const first = source(small.httpUrl);
      await tight.discover(first, { known: new Set() });
      expect(existsSync(join(dir, 'repos', first.id))).toBe(true);
      await tight.discover(source(big.httpUrl, { maxRepositoryMb: 10 }), { known: new Set() });
      expect(existsSync(join(dir, 'repos', first.id))).toBe(false);
      // A fetch after eviction clones again.
      expect((await tight.fetch(first, 'small.md')).data.toString()).toBe('# Small\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
