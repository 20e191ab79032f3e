import { ApiKeyRole, type CredentialKind, type Principal, type UserAccess } from '@trove/domain';

/**
 * The principal the access rules see for a person: their install-wide role (VIEWER, the least,
 * when they have none: every signed-in person may list what they reach and manage their own
 * tokens), every project for an install-wide role, else the projects they hold a role in.
 */
export function personPrincipal(
  access: UserAccess,
  credential: CredentialKind,
  credentialId: string,
): Principal {
  const { user, projectRoles } = access;
  return {
    userId: user.id,
    credential,
    credentialId,
    name: user.email ? `${user.name} <${user.email}>` : user.name,
    role: user.role ?? ApiKeyRole.VIEWER,
    projects: user.role ? 'ALL' : Object.keys(projectRoles),
    projectRoles,
  };
}
