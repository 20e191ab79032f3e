import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import type { ApiKeyLookup } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, Permission } from '@trove/domain';
import { CitationLinks } from '../core/citation-links';
import { document, Public, Requires } from './access.decorators';
import { AccessGuard, admittedBySignedLink } from './access.guard';
import { keyAdmission, memoryAudit } from './admission.testing';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RequestRateLimit } from './rate-limit';
import { principalOf, rememberPrincipal } from './request-principal';

/** A catalog without API keys: only the bootstrap admin key authenticates. */
const NO_KEYS: ApiKeyLookup = { get: async () => undefined, touch: async () => false };

const KEY = 'unit-test-admin-key-0123';
const config = {
  api: {
    adminApiKey: KEY,
    rateLimitRequests: 0,
    rateLimitWindowSeconds: 60,
    host: '127.0.0.1',
    port: 1,
    linkTtlSeconds: 60,
  },
} as ApiConfig;
const links = new CitationLinks(config);
// Only the admin key and remembered principals are used: the catalog is never asked.
const audit = memoryAudit();
const guard = new AccessGuard(
  new Reflector(),
  keyAdmission(new ApiKeyAuthenticator(NO_KEYS, config), new RequestRateLimit(config), audit.recorder),
  links,
  audit.recorder,
);
const DOC = '0123456789abcdef0123456789abcdef';

class Routes {
  undeclared() {
    return 'undeclared';
  }
  @Public()
  open() {
    return 'open';
  }
  @Requires(Permission.READ)
  read() {
    return 'read';
  }
  @Requires(Permission.WRITE)
  write() {
    return 'write';
  }
  @Requires(Permission.READ, document('documentId'), { signedLinkFor: 'documentId' })
  original() {
    return 'original';
  }
}

function http(
  handler: keyof Routes,
  request: {
    headers?: Record<string, string>;
    params?: Record<string, string>;
    query?: Record<string, string>;
  },
) {
  const req = { headers: {}, params: {}, query: {}, ...request };
  const context = {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return { req, context };
}

describe('AccessGuard', () => {
  it('authenticates the admin key in X-API-Key or as a Bearer token, and keeps the principal', async () => {
    const presented: Record<string, string>[] = [
      { 'x-api-key': KEY },
      { authorization: `Bearer ${KEY}` },
      { authorization: `bearer ${KEY}` },
    ];
    for (const headers of presented) {
      const { context } = http('write', { headers });
      await expect(guard.canActivate(context)).resolves.toBe(true);
      expect(principalOf(context)).toMatchObject({ role: 'ADMIN', projects: 'ALL' });
    }
  });

  it('refuses a missing or wrong key as UNAUTHENTICATED, and lets @Public() routes through', async () => {
    await expect(guard.canActivate(http('read', {}).context)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(
      guard.canActivate(http('read', { headers: { 'x-api-key': `${KEY}x` } }).context),
    ).rejects.toThrow('the API key is not valid');
    await expect(guard.canActivate(http('open', {}).context)).resolves.toBe(true);
  });

  it('refuses a role without the permission as FORBIDDEN, and an operation without a rule', async () => {
    const viewer = http('write', {});
    rememberPrincipal(viewer.req, { keyId: 'v', name: 'viewer', role: ApiKeyRole.VIEWER, projects: ['p'] });
    await expect(guard.canActivate(viewer.context)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const reader = http('read', {});
    rememberPrincipal(reader.req, { keyId: 'v', name: 'viewer', role: ApiKeyRole.VIEWER, projects: ['p'] });
    await expect(guard.canActivate(reader.context)).resolves.toBe(true);
    const admin = http('undeclared', { headers: { 'x-api-key': KEY } });
    await expect(guard.canActivate(admin.context)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('admits a valid signed link to an original without a key, and says why a bad one fails', async () => {
    const signature = new URL(links.original(DOC)).searchParams.get('sig')!;
    const signed = http('original', { params: { documentId: DOC }, query: { sig: signature } });
    await expect(guard.canActivate(signed.context)).resolves.toBe(true);
    expect(admittedBySignedLink(signed.req)).toBe(true);
    const other = http('original', {
      params: { documentId: DOC.replace('0', 'f') },
      query: { sig: signature },
    });
    await expect(guard.canActivate(other.context)).rejects.toThrow('this link to the original is not valid');
    const expired = new URL(links.original(DOC, Date.now() - 3_600_000)).searchParams.get('sig')!;
    await expect(
      guard.canActivate(http('original', { params: { documentId: DOC }, query: { sig: expired } }).context),
    ).rejects.toThrow('has expired');
  });

  it('authenticates a GraphQL subscription by its connection parameters (no HTTP request)', async () => {
    const graphql = (connectionParams: Record<string, unknown>) => {
      const gqlContext = { connectionParams };
      const args = [undefined, {}, gqlContext, undefined];
      const context = {
        getType: () => 'graphql',
        getHandler: () => Routes.prototype.read,
        getClass: () => Routes,
        getArgs: () => args,
        getArgByIndex: (index: number) => args[index],
      } as unknown as ExecutionContext;
      return context;
    };
    const subscribed = graphql({ 'X-API-Key': KEY });
    await expect(guard.canActivate(subscribed)).resolves.toBe(true);
    expect(principalOf(subscribed)).toMatchObject({ role: 'ADMIN' });
    await expect(guard.canActivate(graphql({}))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
