import { describe, expect, it } from 'vitest';
import { compilePathPatterns } from './path-patterns';

const PATHS = [
  'hooks.py',
  'sub/hooks.py',
  'drafts/wip.md',
  'sub/drafts/wip.md',
  'api/x.md',
  'api/deep/y.md',
  'sub/api/x.md',
  'tmp',
  'tmp/x.md',
  'a/tmp/x.md',
  'keep.md',
  'a/b.md',
  'a/x/y/b.md',
  'doc1.md',
  'doc12.md',
  'a.md',
  'd.md',
  'top.md',
  'sub/top.md',
  'nested/x.md',
  'sub/nested/x.md',
  'dir/x.md',
  'sub/dir/x.md',
  '#hash.md',
  'drafts/keep.md',
  '.hidden.md',
];
const matched = (lines: string[]) => PATHS.filter((path) => compilePathPatterns(lines).matches(path));

describe('compilePathPatterns', () => {
  // Expected values are what pathspec's GitIgnoreSpec (what MkDocs uses) answers for the same paths.
  it.each([
    [['*.py'], ['hooks.py', 'sub/hooks.py']],
    [['/drafts/'], ['drafts/wip.md', 'drafts/keep.md']],
    [['api/**'], ['api/x.md', 'api/deep/y.md']],
    [['**/tmp'], ['tmp', 'tmp/x.md', 'a/tmp/x.md']],
    [['!keep.md'], []],
    [['a/**/b.md'], ['a/b.md', 'a/x/y/b.md']],
    [['doc?.md'], ['doc1.md']],
    [['[abc].md'], ['a/b.md', 'a/x/y/b.md', 'a.md']],
    [['/top.md'], ['top.md']],
    [['nested/x.md'], ['nested/x.md']],
    [['dir/'], ['dir/x.md', 'sub/dir/x.md']],
    [['\\#hash.md'], ['#hash.md']],
  ])('%j matches like gitignore', (lines, expected) => {
    expect(matched(lines)).toEqual(expected);
  });

  it('lets a later negation re-include a file, and skips comments and blank lines', () => {
    const result = matched(['# comment', '', '*.md', '!drafts/keep.md']);
    expect(result).toContain('drafts/wip.md');
    expect(result).not.toContain('drafts/keep.md');
    expect(result).not.toContain('hooks.py');
    expect(result).toHaveLength(22);
  });
});
