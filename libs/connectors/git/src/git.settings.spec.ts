import { describe, expect, it } from 'vitest';
import { GitCommandError, scrub, stderrSummary } from './git-cli';
import { readGitSettings } from './git.settings';

describe('the Git connector settings', () => {
  it('have defaults, read TROVE_GIT_* (blank is unset), and name every variable at fault', () => {
    expect(readGitSettings({ TROVE_GIT_CACHE_DIR: '', TROVE_GIT_ALLOW_INSECURE: 'true' })).toEqual({
      cacheDir: '.trove/git-cache',
      cacheMaxMb: 4096,
      timeoutMs: 600_000,
      allowInsecure: true,
      allowPrivateNetworks: false,
      binary: 'git',
    });
    expect(() => readGitSettings({ TROVE_GIT_TIMEOUT_MS: 'soon', TROVE_GIT_ALLOW_INSECURE: 'yes' })).toThrow(
      /invalid Git connector settings: TROVE_GIT_TIMEOUT_MS: .*; TROVE_GIT_ALLOW_INSECURE: /,
    );
  });
});

describe('scrubbing git messages', () => {
  it('removes URL credentials and the given secrets', () => {
    expect(
      scrub("fatal: unable to access 'https://bot:ghp_abc@github.com/o/r.git/': 403 (ghp_abc)", ['ghp_abc']),
    ).toBe("fatal: unable to access 'https://***@github.com/o/r.git/': 403 (***)");
  });
});

describe("git's stderr in a message", () => {
  it('keeps it once, readable and bounded: no NUL, terminal escapes or padding, repeats once', () => {
    const stderr =
      'remote: warning: lazy fetching disabled; some objects may not be available        \n' +
      'remote: fatal: could not fetch 02823ef from promisor remote        \n' +
      'remote: fatal: could not fetch 02823ef from promisor remote        \n' +
      'error: git upload-pack: git-pack-objects died with error.\n' +
      'remote: aborting due to possible repository corruption on the remote side.\u0000\n' +
      '\u001b[31mfatal: protocol error: bad pack header\u001b[0m\n' +
      `fatal: ${'x'.repeat(5000)}\n`;
    const summary = stderrSummary(stderr);
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(summary).not.toMatch(/[\u0000-\u001F]/);
    expect(summary.split('could not fetch 02823ef').length - 1).toBe(1);
    expect(summary).toContain(
      'remote: aborting due to possible repository corruption on the remote side. | fatal: protocol error: bad pack header',
    );
    expect(summary.length).toBeLessThan(1300);
    const error = new GitCommandError('fetch', 128, stderr, false);
    expect(error.message).toBe(`git fetch failed (128): ${summary}`);
  });
});
