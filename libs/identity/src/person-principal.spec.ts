import { describe, expect, it } from 'vitest';
import { ApiKeyRole, CredentialKind, highestRole, roleIn, UserStatus } from '@trove/domain';
import { personPrincipal } from './person-principal';

const user = { id: 'u1', name: 'Ada', email: 'ada@x', status: UserStatus.ACTIVE, createdAt: '' };

describe('personPrincipal', () => {
  it('gives a person without an install-wide role exactly their project roles', () => {
    const p = personPrincipal(
      { user, projectRoles: { a: ApiKeyRole.EDITOR, b: ApiKeyRole.VIEWER }, groups: [] },
      CredentialKind.SESSION,
      's1',
    );
    expect(p).toMatchObject({
      userId: 'u1',
      role: ApiKeyRole.VIEWER,
      projects: ['a', 'b'],
      credential: 'SESSION',
    });
    expect(roleIn(p, 'a')).toBe(ApiKeyRole.EDITOR);
    expect(roleIn(p, 'b')).toBe(ApiKeyRole.VIEWER);
    expect(roleIn(p, 'c')).toBeUndefined();
    expect(highestRole(p)).toBe(ApiKeyRole.EDITOR);
  });

  it('gives an install-wide role in every project, a project grant above it where stronger', () => {
    const p = personPrincipal(
      { user: { ...user, role: ApiKeyRole.VIEWER }, projectRoles: { a: ApiKeyRole.ADMIN }, groups: [] },
      CredentialKind.PERSONAL_TOKEN,
      't1',
    );
    expect(p.projects).toBe('ALL');
    expect(roleIn(p, 'a')).toBe(ApiKeyRole.ADMIN);
    expect(roleIn(p, 'z')).toBe(ApiKeyRole.VIEWER);
  });
});
