import type { ApiKeyRole } from './access';

/** Whether a person may sign in and use Trove. */
export enum UserStatus {
  ACTIVE = 'ACTIVE',
  /** Refused from the next request on; sessions and tokens end, subscriptions close. */
  DEACTIVATED = 'DEACTIVATED',
}

/** A person: who their identity provider says they are, and what Trove lets them do. */
export interface User {
  id: string;
  /** The configured provider that signs them in; undefined until the first sign-in of a person made ahead. */
  provider?: string;
  /** The provider's issuer and the person's subject there: together, who they are. */
  issuer?: string;
  subject?: string;
  email?: string;
  name: string;
  pictureUrl?: string;
  /** An install-wide role (every project), or none: then only what their project grants give. */
  role?: ApiKeyRole;
  status: UserStatus;
  createdAt: string;
  lastSeenAt?: string;
  deactivatedAt?: string;
}

/** A person as the access rules see them on one request: their record, projects and groups. */
export interface UserAccess {
  user: User;
  /** The strongest role given in each project, to them or to any group they are in. */
  projectRoles: Record<string, ApiKeyRole>;
  /** Names of the groups they are in. */
  groups: string[];
}

/**
 * A group of people. A provider's group (`provider` set) has its members from the groups claim of
 * each sign-in; a local group (no provider) has members an ADMIN adds.
 */
export interface Group {
  id: string;
  name: string;
  provider?: string;
  createdAt: string;
  memberCount: number;
}

/** A role in a project, given to a person or to a group. */
export interface ProjectGrant {
  id: string;
  projectId: string;
  userId?: string;
  groupId?: string;
  role: ApiKeyRole;
  createdBy: string;
  createdAt: string;
}

/** A browser session (dashboard), kept server-side so it can be ended at once. */
export interface SessionRecord {
  id: string;
  userId: string;
  provider: string;
  /** SHA-256 of the secret half of the cookie; the secret itself is never stored. */
  secretSha256: Buffer;
  createdAt: string;
  /** The absolute end of the session, whatever its use. */
  expiresAt: string;
  lastSeenAt: string;
  /** When the provider is asked again (a refresh) whether the person may still sign in, and their groups. */
  revalidateAt: string;
  revokedAt?: string;
  /** The provider's refresh token and ID token, sealed with TROVE_SECRET_KEY. */
  refreshTokenSealed?: string;
  idTokenSealed?: string;
  address?: string;
  userAgent?: string;
}

/** A token a person makes to act as themselves from scripts; limited to their own rights. */
export interface PersonalTokenRecord {
  id: string;
  userId: string;
  name: string;
  secretSha256: Buffer;
  createdAt: string;
  expiresAt?: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

/**
 * A sign-in under way: what the callback must find to accept the provider's answer (state, nonce,
 * PKCE verifier), bound to the browser that started it, usable once.
 */
export interface LoginTransaction {
  /** SHA-256 (hex) of the `state` sent to the provider. */
  id: string;
  provider: string;
  nonce: string;
  codeVerifier: string;
  /** Where the dashboard goes after signing in: a path on this origin. */
  returnTo: string;
  /** SHA-256 of the random value in the browser's login cookie. */
  bindingSha256: Buffer;
  createdAt: string;
  consumedAt?: string;
}
