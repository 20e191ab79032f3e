import { describe, expect, it } from 'vitest';
import { ApiKeyRole, inProjectScope, Permission, roleGrants } from './access';

describe('roles', () => {
  it('grant READ < WRITE < ADMIN, each role exactly its own', () => {
    const granted = (role: ApiKeyRole) => Object.values(Permission).filter((p) => roleGrants(role, p));
    expect(granted(ApiKeyRole.VIEWER)).toEqual([Permission.READ]);
    expect(granted(ApiKeyRole.EDITOR)).toEqual([Permission.READ, Permission.WRITE]);
    expect(granted(ApiKeyRole.ADMIN)).toEqual([Permission.READ, Permission.WRITE, Permission.ADMIN]);
  });

  it('scope a principal to its projects, or to all', () => {
    const scoped = { name: 'k', role: ApiKeyRole.EDITOR, projects: ['a'] };
    expect(inProjectScope(scoped, 'a')).toBe(true);
    expect(inProjectScope(scoped, 'b')).toBe(false);
    expect(inProjectScope({ ...scoped, projects: 'ALL' }, 'b')).toBe(true);
  });
});
