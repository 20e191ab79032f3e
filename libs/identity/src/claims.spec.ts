import { describe, expect, it } from 'vitest';
import { groupsFrom, identityFrom } from './claims';

describe('claims', () => {
  it('name a person from their claims; only an https picture and a verified email count', () => {
    expect(
      identityFrom('kc', 'https://idp', {
        sub: 's1',
        email: 'a@b.c',
        email_verified: true,
        given_name: 'Ada',
        family_name: 'L',
        picture: 'http://insecure/pic.png',
      }),
    ).toEqual({
      provider: 'kc',
      issuer: 'https://idp',
      subject: 's1',
      email: 'a@b.c',
      emailVerified: true,
      name: 'Ada L',
    });
    expect(identityFrom('kc', 'https://idp', { sub: 's2', email: 'x@y.z' }).emailVerified).toBe(false);
  });

  it('read groups from an array or a string, paths to their last part, undefined when absent', () => {
    expect(groupsFrom({ groups: ['/trove-demo', 'docs', 'docs'] }, 'groups')).toEqual(['trove-demo', 'docs']);
    expect(groupsFrom({ roles: 'a b,c' }, 'roles')).toEqual(['a', 'b', 'c']);
    expect(groupsFrom({}, 'groups')).toBeUndefined();
  });
});
