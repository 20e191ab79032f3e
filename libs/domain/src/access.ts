/**
 * Who may do what. An API key has one role and a project scope; a person has an install-wide
 * role (or none) and a role per project, given to them or to a group they are in. Every operation
 * of the API declares the permission it needs; the same rules decide for keys and for people.
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

/** What a request authenticated with. */
export enum CredentialKind {
  /** An API key (or the bootstrap admin key from configuration). */
  API_KEY = 'API_KEY',
  /** A person's browser session (the dashboard), from a sign-in with an identity provider. */
  SESSION = 'SESSION',
  /** A personal access token a person made (acting as them, with their rights). */
  PERSONAL_TOKEN = 'PERSONAL_TOKEN',
  /** An OAuth 2.1 access token the identity provider issued for Trove (`trove login`, MCP clients). */
  OAUTH_TOKEN = 'OAUTH_TOKEN',
}

/**
 * Who is calling: the key or the person that authenticated the request, with the role and project
 * scope the access rules decide by. For a person, `role` is their install-wide role (VIEWER, the
 * least, when they have none: it opens only what every signed-in person may do, such as listing
 * their own projects) and `projectRoles` what they hold in each project.
 */
export interface Principal {
  /** The key's id; undefined for the bootstrap admin key from configuration and for people. */
  keyId?: string;
  /** The person's user id; undefined for keys. */
  userId?: string;
  /** Undefined: an API key (as before people existed). */
  credential?: CredentialKind;
  /** The session's or token's id, for audit entries and revocation. */
  credentialId?: string;
  /** For created-by and logs; never a secret. */
  name: string;
  role: ApiKeyRole;
  projects: ProjectScope;
  /** A person's role in each project they reach (from grants to them and their groups). */
  projectRoles?: Readonly<Record<string, ApiKeyRole>>;
}

/** Whether the principal reaches a project (existing or not: callers look existence up). */
export function inProjectScope(principal: Principal, projectId: string): boolean {
  return principal.projects === 'ALL' || principal.projects.includes(projectId);
}

const RANK: Record<ApiKeyRole, number> = {
  [ApiKeyRole.VIEWER]: 1,
  [ApiKeyRole.EDITOR]: 2,
  [ApiKeyRole.ADMIN]: 3,
};

/** The stronger of two roles (undefined counts as none). */
export function strongerRole(a: ApiKeyRole | undefined, b: ApiKeyRole | undefined): ApiKeyRole | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** The principal's role in a project; undefined when it does not reach the project at all. */
export function roleIn(principal: Principal, projectId: string): ApiKeyRole | undefined {
  const base = inProjectScope(principal, projectId) ? principal.role : undefined;
  return strongerRole(base, principal.projectRoles?.[projectId]);
}

/** The strongest role the principal holds anywhere: no operation can need more than it has. */
export function highestRole(principal: Principal): ApiKeyRole {
  let highest: ApiKeyRole = principal.role;
  for (const role of Object.values(principal.projectRoles ?? {})) highest = strongerRole(highest, role)!;
  return highest;
}

/** Whether a person (not a key) is calling. */
export function isPerson(principal: Principal): boolean {
  return principal.userId !== undefined;
}

/**
 * Who owns what a principal makes (threads, votes, answers): the person, whichever session or
 * token they used; else the key. Both undefined: the bootstrap admin key.
 */
export interface RecordOwner {
  apiKeyId?: string;
  userId?: string;
}

export function ownerOf(principal: Principal): RecordOwner {
  if (principal.userId !== undefined) return { userId: principal.userId };
  return principal.keyId !== undefined ? { apiKeyId: principal.keyId } : {};
}

/** Whether `owner` is the principal itself (the same person, or the same key). */
export function ownedBy(owner: RecordOwner, principal: Principal): boolean {
  if (principal.userId !== undefined) return owner.userId === principal.userId;
  return owner.userId === undefined && owner.apiKeyId === principal.keyId;
}
