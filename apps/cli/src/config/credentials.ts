import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as client from 'openid-client';

/** What `trove login` keeps for one API: the provider's tokens acting as the person. */
export interface StoredLogin {
  provider: string;
  issuer: string;
  clientId: string;
  accessToken: string;
  refreshToken?: string;
  /** Epoch seconds. */
  expiresAt?: number;
  name?: string;
}

/** `$XDG_CONFIG_HOME/trove/credentials.json` (or `~/.config/…`), readable by its owner only. */
export function credentialsFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'trove', 'credentials.json');
}

function readAll(env: NodeJS.ProcessEnv): Record<string, StoredLogin> {
  try {
    return JSON.parse(readFileSync(credentialsFile(env), 'utf8')) as Record<string, StoredLogin>;
  } catch {
    return {};
  }
}

function writeAll(env: NodeJS.ProcessEnv, all: Record<string, StoredLogin>): void {
  const file = credentialsFile(env);
  if (Object.keys(all).length === 0) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function storedLogin(env: NodeJS.ProcessEnv, apiUrl: string): StoredLogin | undefined {
  return readAll(env)[apiUrl.replace(/\/+$/, '')];
}

export function saveLogin(env: NodeJS.ProcessEnv, apiUrl: string, login: StoredLogin): void {
  writeAll(env, { ...readAll(env), [apiUrl.replace(/\/+$/, '')]: login });
}

export function forgetLogin(env: NodeJS.ProcessEnv, apiUrl: string): boolean {
  const all = readAll(env);
  const key = apiUrl.replace(/\/+$/, '');
  if (!(key in all)) return false;
  delete all[key];
  writeAll(env, all);
  return true;
}

/** The provider's configuration for a public client (PKCE, device flow); http only on loopback. */
export async function discover(issuer: string, clientId: string): Promise<client.Configuration> {
  const url = new URL(issuer);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !loopback) throw new Error(`the issuer ${issuer} is not https`);
  return client.discovery(
    url,
    clientId,
    undefined,
    client.None(),
    url.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
  );
}

/**
 * A valid access token of the stored login: refreshed (and saved) when it expires within a
 * minute; undefined when there is no login or it cannot be refreshed.
 */
export async function freshAccessToken(env: NodeJS.ProcessEnv, apiUrl: string): Promise<string | undefined> {
  const login = storedLogin(env, apiUrl);
  if (!login) return undefined;
  if (!login.expiresAt || login.expiresAt - 60 > Date.now() / 1000 || !login.refreshToken)
    return login.accessToken;
  try {
    const config = await discover(login.issuer, login.clientId);
    const tokens = await client.refreshTokenGrant(config, login.refreshToken);
    const refreshed: StoredLogin = {
      ...login,
      accessToken: tokens.access_token,
      ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
      ...(tokens.expires_in !== undefined && {
        expiresAt: Math.floor(Date.now() / 1000) + tokens.expires_in,
      }),
    };
    saveLogin(env, apiUrl, refreshed);
    return refreshed.accessToken;
  } catch {
    // The provider refused (signed out, deactivated): the API will say so, and `trove login` mends it.
    return login.accessToken;
  }
}
