import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runTrove, TROVE_BIN } from '../support/cli';
import {
  confirmDevice,
  ensureKeycloak,
  identityEnv,
  ISSUER,
  MCP_CLIENT,
  PROVIDER_ID,
  providerLogin,
  RealmAdmin,
  type RealmUser,
} from '../support/identity-provider';
import { ROOT } from '../support/services';
import { TroveStack } from '../support/stack';

// A person's own access from a terminal and from an agent: `trove login` (device flow at the
// local provider) then `trove search` as them; an MCP client that gets an OAuth token from the
// provider (found through /mcp's protected-resource metadata) and searches as them.

const stack = new TroveStack(identityEnv());
const realm = new RealmAdmin();
const GROUP = `agents-${Date.now().toString(36)}`;
let project: string;
let person: RealmUser;

beforeAll(async () => {
  ensureKeycloak();
  await stack.start();
  project = await stack.createProject('Handbook');
  const upload = await stack.upload(
    project,
    'release.md',
    '# Releases\n\nTo roll back a release, run the rollback job.\n',
  );
  expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
  await stack.query('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
    input: { projectId: project, groupName: GROUP, groupProvider: PROVIDER_ID, role: 'VIEWER' },
  });
  person = await realm.user('agent-owner', [GROUP]);
}, 600_000);

afterAll(async () => {
  await realm.deleteUser(person.id).catch(() => undefined);
  await stack.stop();
});

describe('trove login, then trove search as the person', () => {
  it('signs the terminal in with the device flow, keeps the tokens owner-only, and searches with the person’s access', async () => {
    const home = mkdtempSync(join(tmpdir(), 'trove-login-'));
    const env = cleanEnv({ TROVE_API_URL: stack.url, XDG_CONFIG_HOME: home, HOME: home });
    const login = spawn('node', [TROVE_BIN, 'login'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const address = await new Promise<string>((resolve, reject) => {
      login.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /open (http\S+)/.exec(stderr);
        if (match) resolve(match[1]);
      });
      login.once('exit', (code) => reject(new Error(`trove login exited ${code}: ${stderr}`)));
    });
    expect(address.startsWith(`${ISSUER}/device`)).toBe(true);
    await confirmDevice(address, person);
    const code = await new Promise<number | null>((resolve) => login.once('exit', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`as ${person.name}`);
    const file = join(home, 'trove', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toEqual([stack.url]);

    const whoami = await runTrove(['whoami'], { cwd: ROOT, env });
    expect(whoami.stdout).toContain(`${person.name} (OAUTH_TOKEN)`);
    const search = await runTrove(['search', 'roll back a release', '--project', project, '--json'], {
      cwd: ROOT,
      env,
    });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('rollback job');
    const write = await runTrove(['projects', 'create', 'Mine'], { cwd: ROOT, env });
    expect(write.code).toBe(4);

    const out = await runTrove(['logout'], { cwd: ROOT, env });
    expect(out.code).toBe(0);
    const after = await runTrove(['search', 'roll back', '--project', project], { cwd: ROOT, env });
    expect(after.code).toBe(4);
  });
});

/** An MCP client's OAuth side: the pre-registered public client, tokens kept in memory. */
class TestOAuth implements OAuthClientProvider {
  authorizationUrl?: URL;
  private verifier = '';
  private stored?: OAuthTokens;
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  get clientMetadata() {
    return {
      redirect_uris: [this.redirectUrl],
      client_name: 'trove e2e agent',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: MCP_CLIENT };
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('an MCP client with an OAuth token', () => {
  it('finds the provider through the protected-resource metadata, gets a token as the person, and searches as them', async () => {
    const unauthenticated = await fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${stack.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await (await fetch(`${stack.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: `${stack.url}/mcp`, authorization_servers: [ISSUER] });

    const auth = new TestOAuth();
    const url = new URL(`${stack.url}/mcp`);
    const first = new Client({ name: 'agent', version: '1' });
    await expect(
      first.connect(new StreamableHTTPClientTransport(url, { authProvider: auth })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.authorizationUrl?.origin).toBe(new URL(ISSUER).origin);
    const back = new URL(await providerLogin(auth.authorizationUrl!.toString(), person));
    const transport = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await transport.finishAuth(back.searchParams.get('code')!);
    const agent = new Client({ name: 'agent', version: '1' });
    await agent.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    const result = (await agent.callTool({
      name: 'search',
      arguments: { query: 'roll back a release', project },
    })) as {
      isError?: boolean;
      structuredContent?: { hits: { text: string }[] };
    };
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain('rollback job');
    const asAgent = (await (
      await fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${auth.tokens()!.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ query: '{ me { credential name } }' }),
      })
    ).json()) as { data: { me: { credential: string; name: string } } };
    expect(asAgent.data.me).toEqual({ credential: 'OAUTH_TOKEN', name: person.name });
    await agent.close();
  });

  it('refuses a forged token, a token meant for another audience, and an ID token as a bearer', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { SignJWT, importPKCS8 } = await import('jose');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = await importPKCS8(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'RS256');
    const forged = await new SignJWT({ sub: person.id, email: person.email, aud: 'trove' })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(ISSUER)
      .setExpirationTime('5m')
      .sign(key);
    const ask = (token: string) =>
      fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ me { name } }' }),
      });
    const refusedForged = await ask(forged);
    expect(refusedForged.status).toBe(401);
    expect(JSON.stringify(await refusedForged.json())).toContain('signature');
    // A real token of the same provider and person, but issued to another client, not for Trove.
    const other = (await (
      await fetch(`${ISSUER}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'admin-cli',
          username: person.username,
          password: person.password,
          scope: 'openid',
        }),
      })
    ).json()) as { access_token: string; id_token: string };
    const refusedOther = await ask(other.access_token);
    expect(refusedOther.status).toBe(401);
    expect(JSON.stringify(await refusedOther.json())).toContain('not meant for Trove (audience)');
    const refusedIdToken = await ask(other.id_token);
    expect(refusedIdToken.status).toBe(401);
    const { auditEvents } = await stack.query<{
      auditEvents: { nodes: { action: string; detail: { credential?: string } }[] };
    }>('{ auditEvents(first: 5, filter: { action: "auth.refused" }) { nodes { action detail } } }');
    expect(
      auditEvents.nodes.filter((e) => e.detail.credential === 'oauth-token').length,
    ).toBeGreaterThanOrEqual(3);
  });
});
