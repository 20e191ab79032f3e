import { describe, expect, it } from 'vitest';
import { scrub } from './git-cli';
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
