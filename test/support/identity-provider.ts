import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_DIR, ROOT } from './services';

/**
 * The local OpenID Provider (Keycloak, infra/local/install-keycloak.sh) with the committed demo
 * realm: started once by the first test that needs it and then shared. Tests make their own
 * people and groups in the realm (unique names), through its admin API, and sign them in over
 * plain HTTP as a browser would (the login form), or with Chromium in the browser tests.
 */
export const KEYCLOAK_URL = `http://127.0.0.1:${process.env.TROVE_KEYCLOAK_PORT ?? '8180'}`;
export const ISSUER = `${KEYCLOAK_URL}/realms/trove`;
export const DASHBOARD_CLIENT = { id: 'trove-dashboard', secret: 'trove-local-dashboard-secret' };
export const CLI_CLIENT = 'trove-cli';
export const MCP_CLIENT = 'trove-mcp';
export const PROVIDER_ID = 'local';

/** Where up.sh keeps the master realm administrator's password (infra/local/env.sh). */
export const KEYCLOAK_ADMIN_PASSWORD_FILE = join(
  process.env.TROVE_LOCAL_DATA_DIR ?? join(LOCAL_DIR, 'data'),
  'keycloak',
  'admin-password',
);

let started = false;

/** Starts Keycloak (and imports the realm) unless it answers already. */
export function ensureKeycloak(): void {
  if (started) return;
  execFileSync('bash', [join(ROOT, 'infra', 'local', 'up.sh'), 'keycloak'], { stdio: 'inherit' });
  started = true;
}

/** The settings that point a stack at the local provider. */
export function identityEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TROVE_OIDC_PROVIDERS: PROVIDER_ID,
    TROVE_OIDC_LOCAL_NAME: 'Keycloak (local)',
    TROVE_OIDC_LOCAL_ISSUER: ISSUER,
    TROVE_OIDC_LOCAL_CLIENT_ID: DASHBOARD_CLIENT.id,
    TROVE_OIDC_LOCAL_CLIENT_SECRET: DASHBOARD_CLIENT.secret,
    TROVE_OIDC_LOCAL_AUDIENCE: 'trove',
    TROVE_OIDC_LOCAL_CLI_CLIENT_ID: CLI_CLIENT,
    ...extra,
  };
}

/** A person of the demo realm a test made. */
export interface RealmUser {
  id: string;
  username: string;
  email: string;
  password: string;
  name: string;
}

/** The demo realm's administration (users, groups), as the realm's owner would do it. */
export class RealmAdmin {
  private token?: { value: string; at: number };

  private async bearer(): Promise<string> {
    if (this.token && Date.now() - this.token.at < 30_000) return this.token.value;
    const password = readFileSync(KEYCLOAK_ADMIN_PASSWORD_FILE, 'utf8').trim();
    const response = await fetch(`${KEYCLOAK_URL}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: 'admin',
        password,
      }),
    });
    if (!response.ok) throw new Error(`Keycloak admin sign-in failed: ${response.status}`);
    const { access_token } = (await response.json()) as { access_token: string };
    this.token = { value: access_token, at: Date.now() };
    return access_token;
  }

  async call(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${KEYCLOAK_URL}/admin/realms/trove${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await this.bearer()}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok && response.status !== 404) {
      throw new Error(`Keycloak admin ${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return response;
  }

  /** A group of the realm (made if missing); its id. */
  async group(name: string): Promise<string> {
    const found = (await (
      await this.call('GET', `/groups?search=${encodeURIComponent(name)}&exact=true`)
    ).json()) as {
      id: string;
      name: string;
    }[];
    const exact = found.find((g) => g.name === name);
    if (exact) return exact.id;
    const made = await this.call('POST', '/groups', { name });
    return made.headers.get('location')!.split('/').pop()!;
  }

  /** A new person with a password, in the named groups. */
  async user(label: string, groups: string[] = []): Promise<RealmUser> {
    const username = `${label}-${randomBytes(3).toString('hex')}`;
    const user = {
      username,
      email: `${username}@trove.test`,
      password: randomBytes(9).toString('base64url'),
      name: `${label} Tester`,
    };
    const made = await this.call('POST', '/users', {
      username,
      email: user.email,
      emailVerified: true,
      firstName: label,
      lastName: 'Tester',
      enabled: true,
      credentials: [{ type: 'password', value: user.password, temporary: false }],
    });
    const id = made.headers.get('location')!.split('/').pop()!;
    for (const group of groups) await this.addToGroup(id, group);
    return { id, ...user };
  }

  async addToGroup(userId: string, group: string): Promise<void> {
    await this.call('PUT', `/users/${userId}/groups/${await this.group(group)}`);
  }

  async removeFromGroup(userId: string, group: string): Promise<void> {
    await this.call('DELETE', `/users/${userId}/groups/${await this.group(group)}`);
  }

  async deleteUser(userId: string): Promise<void> {
    await this.call('DELETE', `/users/${userId}`);
  }
}

/** Cookies of one site, as a browser keeps them (names only; enough for these flows). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The provider's login form filled in (the page it shows after an authorization request); where it sends the browser next. */
export async function providerLogin(
  authorizationUrl: string,
  user: Pick<RealmUser, 'username' | 'password'>,
): Promise<string> {
  const jar = new CookieJar();
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.take(page);
  const html = await page.text();
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`the provider showed no login form (status ${page.status})`);
  const submitted = await fetch(action.replace(/&amp;/g, '&'), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.username, password: user.password, credentialId: '' }),
  });
  const location = submitted.headers.get('location');
  if (submitted.status !== 302 || !location) {
    throw new Error(`the provider did not accept the login (status ${submitted.status})`);
  }
  return location;
}

/** A browser's sign-in half done: the provider's answer, not yet taken to Trove's callback. */
export interface PendingSignIn {
  /** Trove's callback URL with the provider's code and state. */
  callbackUrl: string;
  /** The cookies of the browser that started it (Trove's login cookie). */
  jar: CookieJar;
}

/** Starts a sign-in at Trove and logs in at the provider; stops before Trove's callback. */
export async function startSignIn(
  troveUrl: string,
  user: Pick<RealmUser, 'username' | 'password'>,
  returnTo = '/projects',
  provider = PROVIDER_ID,
): Promise<PendingSignIn> {
  const jar = new CookieJar();
  const start = await fetch(`${troveUrl}/auth/login/${provider}?returnTo=${encodeURIComponent(returnTo)}`, {
    redirect: 'manual',
  });
  if (start.status !== 303)
    throw new Error(`the sign-in did not start: ${start.status} ${await start.text()}`);
  jar.take(start);
  const callbackUrl = await providerLogin(start.headers.get('location')!, user);
  return { callbackUrl, jar };
}

/** A signed-in browser: its cookies (the session), and the session's CSRF token. */
export interface Session {
  jar: CookieJar;
  csrf: string;
  /** Headers for a request of this browser (the CSRF token on all of them: GraphQL is POSTed). */
  headers(): Record<string, string>;
}

/** Takes the provider's answer to Trove's callback with the browser's cookies. */
export async function finishSignIn(pending: PendingSignIn): Promise<Response> {
  const response = await fetch(pending.callbackUrl, {
    redirect: 'manual',
    headers: { cookie: pending.jar.header() },
  });
  pending.jar.take(response);
  return response;
}

/** Signs a person in to Trove, as a browser would, and reads the session's CSRF token. */
export async function signIn(troveUrl: string, user: RealmUser): Promise<Session> {
  const pending = await startSignIn(troveUrl, user);
  const done = await finishSignIn(pending);
  if (done.status !== 303 || !pending.jar.get('trove_session')) {
    throw new Error(`the sign-in failed: ${done.status} ${await done.text()}`);
  }
  const session = await fetch(`${troveUrl}/auth/session`, { headers: { cookie: pending.jar.header() } });
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const jar = pending.jar;
  return {
    jar,
    csrf: csrfToken,
    headers: () => ({ cookie: jar.header(), 'x-csrf-token': csrfToken }),
  };
}

/** A GraphQL request of a signed-in browser (or with any headers). */
export async function gqlAs<T = Record<string, unknown>>(
  troveUrl: string,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; data?: T; errors?: { message: string; extensions?: { code?: string } }[] }> {
  const response = await fetch(`${troveUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  return { status: response.status, ...body };
}

/**
 * A person confirming a device sign-in (`trove login`) in a browser: opens the address the
 * terminal showed, logs in, and follows the provider's pages until it says the device is signed in.
 */
export async function confirmDevice(
  address: string,
  user: Pick<RealmUser, 'username' | 'password'>,
): Promise<string> {
  const jar = new CookieJar();
  let url = address;
  let init: RequestInit = {};
  for (let step = 0; step < 10; step++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie: jar.header() },
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).toString();
      init = {};
      continue;
    }
    const html = await response.text();
    const login = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (login) {
      url = new URL(login.replace(/&amp;/g, '&'), url).toString();
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: user.username, password: user.password, credentialId: '' }),
      };
      continue;
    }
    const consent = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="accept"/.exec(html)?.[1];
    if (consent) {
      url = new URL(consent.replace(/&amp;/g, '&'), url).toString();
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ accept: 'Yes' }),
      };
      continue;
    }
    return html;
  }
  throw new Error('the device sign-in did not finish in ten steps');
}
