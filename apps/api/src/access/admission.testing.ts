import { AuditRecorder } from '@trove/audit';
import type { NewAuditEvent } from '@trove/domain';
import {
  IdentityProviders,
  OAuthTokenAuthenticator,
  PersonalTokens,
  Provisioning,
  type TokenStore,
  type UserDirectory,
} from '@trove/identity';
import type { ApiKeyAuthenticator } from './api-key-authenticator';
import type { RequestRateLimit } from './rate-limit';
import { RequestAdmission } from './request-admission';

/** An audit log in memory, for unit tests of what is recorded. */
export function memoryAudit(): { recorder: AuditRecorder; events: NewAuditEvent[] } {
  const events: NewAuditEvent[] = [];
  const recorder = new AuditRecorder(
    { append: async (event) => void events.push(event), countQuery: async () => undefined },
    { queryLog: 'counts' },
    () => undefined,
  );
  return { recorder, events };
}

const NO_USERS: UserDirectory & { access: () => Promise<undefined>; get: () => Promise<undefined> } = {
  matchSignIn: async () => undefined,
  syncProviderGroups: async () => undefined,
  listGroups: async () => [],
  createLocalGroup: async () => {
    throw new Error('no groups in this test');
  },
  addMember: async () => undefined,
  access: async () => undefined,
  get: async () => undefined,
};

const NO_TOKENS: TokenStore = {
  createToken: async () => {
    throw new Error('no tokens in this test');
  },
  getToken: async () => undefined,
  userTokens: async () => [],
  revokeToken: async () => undefined,
  touchToken: async () => undefined,
};

/** Admission for tests of keys alone: no people, no providers, the audit log in memory. */
export function keyAdmission(
  keys: ApiKeyAuthenticator,
  rateLimit: RequestRateLimit,
  audit: AuditRecorder = memoryAudit().recorder,
): RequestAdmission {
  const providers = new IdentityProviders({ providers: [], clockToleranceSeconds: 30 }, 'http://127.0.0.1:1');
  const provisioning = new Provisioning(NO_USERS, { provisioning: 'jit' });
  return new RequestAdmission(
    keys,
    rateLimit,
    new PersonalTokens(NO_TOKENS, NO_USERS),
    new OAuthTokenAuthenticator(providers, provisioning, NO_USERS),
    audit,
  );
}
