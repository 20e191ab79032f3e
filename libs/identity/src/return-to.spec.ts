import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to';

describe('safeReturnTo', () => {
  it('keeps a path of this site, with its query and fragment', () => {
    expect(safeReturnTo('/projects/p1/search?q=x#top')).toEqual({
      path: '/projects/p1/search?q=x#top',
      refused: false,
    });
    expect(safeReturnTo(undefined)).toEqual({ path: '/', refused: false });
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    'javascript:alert(1)',
    '/auth/login/local',
    'http:/evil.example',
    '/a\u0000b',
    'evil.example',
  ])('refuses %s (no open redirect)', (value) => {
    expect(safeReturnTo(value)).toEqual({ path: '/', refused: true });
  });
});
