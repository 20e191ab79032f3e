import { describe, expect, it } from 'vitest';
import { redactPaths } from './redact';

describe('redactPaths', () => {
  it('keeps the file name of absolute paths and drops the folders', () => {
    expect(
      redactPaths("ENOENT: no such file or directory, open '/work/.trove/folder-cache/abc/0123/docs/a.md'"),
    ).toBe("ENOENT: no such file or directory, open '…/a.md'");
    expect(redactPaths('/srv/docs is a file: FILES needs a folder')).toBe(
      '…/docs is a file: FILES needs a folder',
    );
    expect(redactPaths('mkdir (/tmp/x/y) failed')).toBe('mkdir (…/y) failed');
  });

  it('leaves URLs, relative paths and plain text alone', () => {
    for (const text of [
      'Notion page https://api.notion.com/v1/pages/abc is gone',
      'the original of docs/a.md is missing (originals/abc/def)',
      'Elasticsearch answered 503 while indexing',
      'a/b and /c',
    ]) {
      expect(redactPaths(text)).toBe(text);
    }
  });
});
