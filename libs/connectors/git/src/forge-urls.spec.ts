import { describe, expect, it } from 'vitest';
import { fileViewUrl, forgeRepository } from './forge-urls';

const sha = '0123456789abcdef0123456789abcdef01234567';

describe('forge file views', () => {
  it('links each forge to its file view at the commit', () => {
    const view = (remote: string) => {
      const repo = forgeRepository(remote);
      return repo && fileViewUrl(repo, sha, 'docs/a b.md');
    };
    expect(view('https://github.com/o/r.git')).toBe(`https://github.com/o/r/blob/${sha}/docs/a%20b.md`);
    expect(view('git@github.com:o/r.git')).toBe(`https://github.com/o/r/blob/${sha}/docs/a%20b.md`);
    expect(view('ssh://git@gitlab.com/group/sub/r.git')).toBe(
      `https://gitlab.com/group/sub/r/-/blob/${sha}/docs/a%20b.md`,
    );
    expect(view('https://codeberg.org/o/r')).toBe(`https://codeberg.org/o/r/src/commit/${sha}/docs/a%20b.md`);
    expect(view('https://bitbucket.org/o/r.git')).toBe(`https://bitbucket.org/o/r/src/${sha}/docs/a%20b.md`);
  });

  it('links nothing for a server path, an unknown host or a bare remote, unless the forge is named', () => {
    expect(forgeRepository('/srv/git/docs')).toBeUndefined();
    expect(forgeRepository('https://git.example.com/o/r.git')).toBeUndefined();
    expect(forgeRepository('git://127.0.0.1:9418/r.git')).toBeUndefined();
    expect(forgeRepository('https://git.example.com/o/r.git', 'gitea')).toEqual({
      forge: 'gitea',
      webUrl: 'https://git.example.com/o/r',
    });
  });
});
