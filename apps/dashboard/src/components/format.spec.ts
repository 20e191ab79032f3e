import { describe, expect, it } from 'vitest';
import { plural } from './format';

describe('plural', () => {
  it('says one of a thing in the singular, any other count in the plural', () => {
    expect(plural(1, 'document')).toBe('1 document');
    expect(plural(0, 'document')).toBe('0 documents');
    expect(plural(2, 'chunk')).toBe('2 chunks');
    expect(plural(1200, 'query', 'queries')).toBe('1,200 queries');
  });
});
