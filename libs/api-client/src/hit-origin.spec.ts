import { describe, expect, it } from 'vitest';
import { hitOrigin } from './hit-origin';

describe('hitOrigin', () => {
  it('names the source and the document; an upload comes from Uploads', () => {
    expect(
      hitOrigin({ title: 'Backups', fileName: 'operations/backups.md', sourceName: 'Handbook site' }),
    ).toBe('Handbook site › Backups');
    expect(hitOrigin({ title: 'Releases', fileName: 'release-process.md', sourceName: null })).toBe(
      'Uploads › Releases',
    );
  });

  it('names only the document when the catalog no longer knows where it came from', () => {
    expect(hitOrigin({ title: 'Releases', fileName: null, sourceName: null })).toBe('Releases');
  });
});
