import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { importPKCS8, SignJWT, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureKeycloak,
  finishSignIn,
  KEYCLOAK_ADMIN_PASSWORD_FILE,
  KEYCLOAK_URL,
  type RealmUser,
  startSignIn,
} from '../support/identity-provider';
import { freePort, ROOT } from '../support/services';
import { TroveStack } from '../support/stack';

// ID tokens that must not be accepted, from the real provider: a realm of the local Keycloak whose
// signing key the test knows, reached through a proxy (the realm's front-end URL) that may change
// the token endpoint's answer on its way to Trove — the position of a compromised network path or
// a misbehaving provider. Everything else (discovery, JWKS, the login, the code) is Keycloak's.

const REALM = `tamper-${Date.now().toString(36)}`;
const PROVIDER = 'tampered';
const { privateKey: realmKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey: attackerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let proxy: Server;
let proxyUrl: string;
let stack: TroveStack;
let person: RealmUser;

/** What the proxy does to the ID token of the next token response. */
let tamper: ((payload: JWTPayload) => JWTPayload) | undefined;
let signingKey: KeyObject = realmKey;

async function resign(idToken: string): Promise<string> {
  const header = decodeProtectedHeader(idToken);
  const payload = tamper ? tamper(decodeJwt(idToken)) : decodeJwt(idToken);
  const key = await importPKCS8(signingKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'RS256');
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: header.kid, typ: 'JWT' }).sign(key);
}

/** Forwards everything to Keycloak; rewrites the ID token of token responses when told to. */
function startProxy(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(
            ([name]) => !['host', 'content-length', 'connection'].includes(name),
          ),
        ) as Record<string, string>;
        const upstream = await fetch(`${KEYCLOAK_URL}${request.url}`, {
          method: request.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
          redirect: 'manual',
        });
        let body = Buffer.from(await upstream.arrayBuffer());
        if (request.url?.endsWith('/protocol/openid-connect/token') && upstream.ok) {
          const json = JSON.parse(body.toString()) as { id_token?: string };
          if (json.id_token && (tamper || signingKey !== realmKey))
            json.id_token = await resign(json.id_token);
          body = Buffer.from(JSON.stringify(json));
        }
        const out: Record<string, string | string[]> = {};
        upstream.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'set-cookie'].includes(name))
            out[name] = value;
        });
        const cookies = upstream.headers.getSetCookie();
        if (cookies.length) out['set-cookie'] = cookies;
        response.writeHead(upstream.status, out);
        response.end(body);
      })().catch((error: Error) => {
        response.writeHead(502);
        response.end(error.message);
      });
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  ensureKeycloak();
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  proxy = await startProxy(port);
  const definition = JSON.parse(
    readFileSync(join(ROOT, 'infra/local/keycloak/trove-realm.json'), 'utf8'),
  ) as Record<string, unknown>;
  await importRealm({
    ...definition,
    realm: REALM,
    users: [],
    attributes: { frontendUrl: proxyUrl },
    components: {
      'org.keycloak.keys.KeyProvider': [
        {
          name: 'known to the test',
          providerId: 'rsa',
          subComponents: {},
          config: {
            priority: ['1000'],
            enabled: ['true'],
            active: ['true'],
            algorithm: ['RS256'],
            privateKey: [realmKey.export({ type: 'pkcs1', format: 'pem' }) as string],
          },
        },
      ],
    },
  });
  person = await realmUser();
  stack = new TroveStack({
    TROVE_OIDC_PROVIDERS: PROVIDER,
    TROVE_OIDC_TAMPERED_ISSUER: `${proxyUrl}/realms/${REALM}`,
    TROVE_OIDC_TAMPERED_CLIENT_ID: 'trove-dashboard',
    TROVE_OIDC_TAMPERED_CLIENT_SECRET: 'trove-local-dashboard-secret',
  });
  await stack.start({ worker: false });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await adminFetch('DELETE', `/admin/realms/${REALM}`).catch(() => undefined);
  proxy?.close();
});

async function adminFetch(method: string, path: string, body?: unknown): Promise<Response> {
  const password = readFileSync(KEYCLOAK_ADMIN_PASSWORD_FILE, 'utf8').trim();
  const token = (await (
    await fetch(`${KEYCLOAK_URL}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: 'admin',
        password,
      }),
    })
  ).json()) as { access_token: string };
  return fetch(`${KEYCLOAK_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token.access_token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function importRealm(definition: Record<string, unknown>): Promise<void> {
  const response = await adminFetch('POST', '/admin/realms', definition);
  if (response.status !== 201) throw new Error(`realm import: ${response.status} ${await response.text()}`);
}

async function realmUser(): Promise<RealmUser> {
  const user = {
    username: 'target',
    email: 'target@trove.test',
    password: 'tampered-realm-password',
    name: 'Target Person',
  };
  const made = await adminFetch('POST', `/admin/realms/${REALM}/users`, {
    username: user.username,
    email: user.email,
    emailVerified: true,
    firstName: 'Target',
    lastName: 'Person',
    enabled: true,
    credentials: [{ type: 'password', value: user.password, temporary: false }],
  });
  return { id: made.headers.get('location')!.split('/').pop()!, ...user };
}

/** A sign-in through the tampering proxy; the callback's answer. */
async function signInThroughProxy(): Promise<Response> {
  const pending = await startSignIn(stack.url, person, '/projects', PROVIDER);
  return finishSignIn(pending);
}

async function refusalOf(response: Response) {
  expect(response.status).toBe(401);
  const { error } = (await response.json()) as { error: { code: string; reason: string; message: string } };
  return error;
}

describe('ID tokens Trove must refuse', () => {
  it('accepts the provider’s token as it comes, and re-signed with the realm’s own key (the proxy changes nothing by itself)', async () => {
    tamper = undefined;
    signingKey = realmKey;
    expect((await signInThroughProxy()).status).toBe(303);
    tamper = (payload) => payload;
    expect((await signInThroughProxy()).status).toBe(303);
  });

  it('refuses a forged ID token (signed with another key under the realm key’s id)', async () => {
    tamper = (payload) => payload;
    signingKey = attackerKey;
    try {
      const error = await refusalOf(await signInThroughProxy());
      expect(error).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'INVALID_ID_TOKEN' });
      expect(error.message).toMatch(/signature/i);
    } finally {
      signingKey = realmKey;
    }
  });

  it('refuses an expired ID token', async () => {
    const now = Math.floor(Date.now() / 1000);
    tamper = (payload) => ({ ...payload, iat: now - 7200, exp: now - 3600 });
    const error = await refusalOf(await signInThroughProxy());
    expect(error).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'INVALID_ID_TOKEN' });
    expect(error.message).toMatch(/its exp claim/);
  });

  it('refuses an ID token for another audience', async () => {
    tamper = (payload) => ({ ...payload, aud: 'another-client', azp: 'another-client' });
    const error = await refusalOf(await signInThroughProxy());
    expect(error).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'INVALID_ID_TOKEN' });
    expect(error.message).toMatch(/its aud claim/);
  });

  it('refuses an ID token with a wrong nonce', async () => {
    tamper = (payload) => ({ ...payload, nonce: 'not-the-nonce-of-this-sign-in' });
    const error = await refusalOf(await signInThroughProxy());
    expect(error).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'INVALID_ID_TOKEN' });
    expect(error.message).toMatch(/its nonce claim/);
  });

  it('records each refusal in the audit log', async () => {
    tamper = undefined;
    const { auditEvents } = await stack.query<{ auditEvents: { nodes: { detail: { reason?: string } }[] } }>(
      '{ auditEvents(first: 20, filter: { action: "auth.sign_in_failed" }) { nodes { detail } } }',
    );
    expect(auditEvents.nodes.filter((e) => e.detail.reason === 'INVALID_ID_TOKEN')).toHaveLength(4);
  });
});
