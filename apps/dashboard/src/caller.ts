import { useQuery } from '@tanstack/react-query';
import { gql } from './api/client';
import { MeDocument, type ApiKeyRole, type Permission } from '@trove/api-client/browser';

export interface Caller {
  /** False until `me` has answered: nothing that needs a permission shows before then. */
  known: boolean;
  name?: string;
  role?: ApiKeyRole;
  /** Whether the signed-in key holds the permission (the API enforces it either way). */
  can(permission: Permission): boolean;
}

/**
 * What the signed-in key may do (`me`): pages show only what it may do. This is presentation
 * only; the API refuses whatever the key may not do, whatever the page shows.
 */
export function useCaller(): Caller {
  const me = useQuery({ queryKey: ['me'], queryFn: () => gql(MeDocument), staleTime: Infinity });
  const permissions = new Set(me.data?.me.permissions ?? []);
  return {
    known: me.data !== undefined,
    name: me.data?.me.name,
    role: me.data?.me.role,
    can: (permission) => permissions.has(permission),
  };
}
