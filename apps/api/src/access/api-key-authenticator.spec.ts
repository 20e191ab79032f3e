import { describe, expect, it } from 'vitest';
import type { ApiKeyLookup, StoredApiKey } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, type Principal } from '@trove/domain';
import { ApiKeyAuthenticator, BOOTSTRAP_ADMIN } from './api-key-authenticator';

const KEY_ID = '0b6f3c1e-8a4d-4f2a-9c7e-1d2e3f4a5b6c';
const config = { api: { adminApiKey: 'unit-test-admin-key-0123' } } as ApiConfig;
const principal: Principal = { keyId: KEY_ID, name: 'live', role: ApiKeyRole.VIEWER, projects: 'ALL' };

describe('ApiKeyAuthenticator.confirm (keys of open subscriptions)', () => {
  it("shares one read of a key's state among its subscriptions, and sees a revocation once forgotten", async () => {
    let reads = 0;
    const stored: StoredApiKey = {
      id: KEY_ID,
      name: 'live',
      role: ApiKeyRole.VIEWER,
      projectIds: null,
      secretSha256: Buffer.alloc(32),
      createdBy: 'admin',
      createdAt: '2026-11-26T00:00:00Z',
    };
    const apiKeys: ApiKeyLookup = {
      get: async () => {
        reads += 1;
        return stored;
      },
      touch: async () => false,
    };
    const authenticator = new ApiKeyAuthenticator(apiKeys, config);
    await Promise.all(Array.from({ length: 100 }, () => authenticator.confirm(principal)));
    expect(reads).toBe(1);
    // Revoking a key forgets it (ApiKeysService), so the next check reads its new state.
    stored.revokedAt = new Date().toISOString();
    authenticator.forget(KEY_ID);
    await expect(authenticator.confirm(principal)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'the API key was revoked',
    });
    expect(reads).toBe(2);
    await expect(authenticator.confirm(BOOTSTRAP_ADMIN)).resolves.toBeUndefined();
    expect(reads).toBe(2);
  });
});
