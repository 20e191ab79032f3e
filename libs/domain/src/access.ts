/**
 * Who may do what (issue 12). An API key has one role and a project scope; every operation of
 * the API declares the permission it needs, and a key reaches only the projects in its scope.
 */
export enum ApiKeyRole {
  /** Everything, in every project: API keys, global settings, creating and deleting projects. */
  ADMIN = 'ADMIN',
  /** Reads and writes content and sources of its projects. */
  EDITOR = 'EDITOR',
  /** Searches and reads its projects. */
  VIEWER = 'VIEWER',
}

/** What an operation needs. */
export enum Permission {
  /** Read content, sources, runs; search and ask. */
  READ = 'READ',
  /** Upload, delete and re-index documents; add, change, sync and remove sources; webhooks. */
  WRITE = 'WRITE',
  /** API keys, global settings (RAG config, embedding model), creating and deleting projects. */
  ADMIN = 'ADMIN',
}

const GRANTS: Record<ApiKeyRole, ReadonlySet<Permission>> = {
  [ApiKeyRole.ADMIN]: new Set([Permission.READ, Permission.WRITE, Permission.ADMIN]),
  [ApiKeyRole.EDITOR]: new Set([Permission.READ, Permission.WRITE]),
  [ApiKeyRole.VIEWER]: new Set([Permission.READ]),
};

/** Whether a role grants a permission. */
export function roleGrants(role: ApiKeyRole, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

/** The projects a key reaches: all of them, or a list of ids. */
export type ProjectScope = 'ALL' | readonly string[];

/** Who is calling: the key that authenticated the request, with its role and project scope. */
export interface Principal {
  /** The key's id; undefined for the bootstrap admin key from configuration. */
  keyId?: string;
  /** For created-by and logs; never the secret. */
  name: string;
  role: ApiKeyRole;
  projects: ProjectScope;
}

/** Whether the principal reaches a project (existing or not: callers look existence up). */
export function inProjectScope(principal: Principal, projectId: string): boolean {
  return principal.projects === 'ALL' || principal.projects.includes(projectId);
}
