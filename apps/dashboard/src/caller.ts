import { useQuery } from '@tanstack/react-query';
import { gql } from './api/client';
import { MeDocument, type ApiKeyRole, type CredentialKind, type Permission } from '@trove/api-client/browser';

const GRANTS: Record<ApiKeyRole, Permission[]> = {
  ADMIN: ['READ', 'WRITE', 'ADMIN'],
  EDITOR: ['READ', 'WRITE'],
  VIEWER: ['READ'],
};

export interface Caller {
  /** False until `me` has answered: nothing that needs a permission shows before then. */
  known: boolean;
  name?: string;
  email?: string | null;
  pictureUrl?: string | null;
  role?: ApiKeyRole;
  credential?: CredentialKind;
  /** A person (signed in with the identity provider, or with their token), not an API key. */
  person: boolean;
  /** Whether the caller holds the permission install-wide (the API enforces it either way). */
  can(permission: Permission): boolean;
  /** Whether the caller holds the permission in the project (a person's project role, a key's scope). */
  canIn(projectId: string | undefined, permission: Permission): boolean;
}

/**
 * Who is signed in and what they may do (`me`): pages show only what they may do. This is
 * presentation only; the API refuses whatever the caller may not do, whatever the page shows.
 */
export function useCaller(): Caller {
  const me = useQuery({ queryKey: ['me'], queryFn: () => gql(MeDocument), staleTime: Infinity });
  const data = me.data?.me;
  const permissions = new Set(data?.permissions ?? []);
  const roles = new Map((data?.projectRoles ?? []).map((r) => [r.projectId, r.role]));
  return {
    known: data !== undefined,
    name: data?.name,
    email: data?.email,
    pictureUrl: data?.pictureUrl,
    role: data?.role,
    credential: data?.credential,
    person: Boolean(data?.userId),
    can: (permission) => permissions.has(permission),
    canIn: (projectId, permission) => {
      if (
        permissions.has(permission) &&
        (data?.projectIds == null || (projectId && data.projectIds.includes(projectId)))
      ) {
        return true;
      }
      const role = projectId ? roles.get(projectId) : undefined;
      return role !== undefined && GRANTS[role].includes(permission);
    },
  };
}
