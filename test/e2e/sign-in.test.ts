import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditLine } from '@trove/domain';
import {
  ensureKeycloak,
  finishSignIn,
  gqlAs,
  identityEnv,
  ISSUER,
  PROVIDER_ID,
  RealmAdmin,
  type RealmUser,
  signIn,
  startSignIn,
} from '../support/identity-provider';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// People sign in with the local OpenID Provider (Keycloak) and get the access their provider
// group has in Trove; they sign out; an ADMIN deactivates one and their next request is refused.
// The audit log shows each step.

const stack = new TroveStack(identityEnv());
const realm = new RealmAdmin();
const GROUP = `docs-readers-${Date.now().toString(36)}`;
let readable: string;
let other: string;
let reader: RealmUser;

beforeAll(async () => {
  ensureKeycloak();
  // No worker: what a person may read is decided by the api (searching their documents as a
  // person is in personal-access.test.ts and the access matrix).
  await stack.start({ worker: false });
  readable = await stack.createProject('Readable');
  other = await stack.createProject('Elsewhere');
  // The provider's group gets its role before anyone of it has signed in.
  await stack.query(
    'mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id role group { name provider } } }',
    { input: { projectId: readable, groupName: GROUP, groupProvider: PROVIDER_ID, role: 'VIEWER' } },
  );
  reader = await realm.user('reader', [GROUP]);
}, 600_000);

afterAll(async () => {
  await realm.deleteUser(reader.id).catch(() => undefined);
  await stack.stop();
});

describe('signing in with the identity provider', () => {
  it('lists the provider, and a sign-in lands on the page it started from, as the person, with a Strict HttpOnly session cookie', async () => {
    const providers = await (await fetch(`${stack.url}/auth/providers`)).json();
    expect(providers).toMatchObject({
      providers: [
        {
          id: PROVIDER_ID,
          name: 'Keycloak (local)',
          loginUrl: '/auth/login/local',
          cli: { issuer: ISSUER, clientId: 'trove-cli' },
        },
      ],
    });
    const pending = await startSignIn(stack.url, reader, '/projects/x/search');
    const done = await finishSignIn(pending);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/projects/x/search');
    const cookie = done.headers.getSetCookie().find((line) => line.startsWith('trove_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = await fetch(`${stack.url}/auth/session`, { headers: { cookie: pending.jar.header() } });
    expect(session.status).toBe(200);
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const me = await gqlAs<{ me: Record<string, unknown> }>(
      stack.url,
      { cookie: pending.jar.header(), 'x-csrf-token': csrfToken },
      '{ me { userId credential name email groups projectRoles { projectId role } projectIds } }',
    );
    expect(me.data?.me).toMatchObject({
      credential: 'SESSION',
      name: reader.name,
      email: reader.email,
      groups: [GROUP],
      projectRoles: [{ projectId: readable, role: 'VIEWER' }],
      projectIds: [readable],
    });
  });

  it("gives the group's role in its project, and nothing elsewhere: reads yes, writes no, other projects unseen", async () => {
    const browser = await signIn(stack.url, reader);
    const read = await gqlAs<{ project: { id: string; name: string } }>(
      stack.url,
      browser.headers(),
      'query($id: ID!) { project(id: $id) { id name } }',
      { id: readable },
    );
    expect(read.data?.project).toEqual({ id: readable, name: 'Readable' });
    const search = await gqlAs<{ search: { hits: unknown[] } }>(
      stack.url,
      browser.headers(),
      'query($input: SearchInput!) { search(input: $input) { hits { text } } }',
      { input: { projectId: readable, query: 'roll back a release' } },
    );
    expect(search.errors).toBeUndefined();
    expect(search.data?.search.hits).toEqual([]);
    const write = await gqlAs(
      stack.url,
      browser.headers(),
      'mutation($p: ID!) { updateProjectSettings(projectId: $p, input: { ocr: true }) { id } }',
      {
        p: readable,
      },
    );
    expect(write.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(write.errors?.[0].message).toContain('(role VIEWER) may not do this: it needs WRITE permission');
    const elsewhere = await gqlAs(
      stack.url,
      browser.headers(),
      'query($id: ID!) { project(id: $id) { id } }',
      { id: other },
    );
    expect(elsewhere.data).toEqual({ project: null });
    const listed = await gqlAs<{ projects: { id: string }[] }>(
      stack.url,
      browser.headers(),
      '{ projects { id } }',
    );
    expect(listed.data?.projects.map((p) => p.id)).toEqual([readable]);
    const keys = await gqlAs(stack.url, browser.headers(), '{ apiKeys { id } }');
    expect(keys.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });

  it('signs out: the session ends here at once, and the provider’s sign-out page is given', async () => {
    const browser = await signIn(stack.url, reader);
    const refused = await fetch(`${stack.url}/auth/logout`, {
      method: 'POST',
      headers: { cookie: browser.jar.header() },
    });
    expect(refused.status).toBe(403);
    const out = await fetch(`${stack.url}/auth/logout`, { method: 'POST', headers: browser.headers() });
    expect(out.status).toBe(200);
    const { logoutUrl } = (await out.json()) as { logoutUrl: string };
    expect(logoutUrl).toContain(`${ISSUER}/protocol/openid-connect/logout`);
    expect(new URL(logoutUrl).searchParams.get('id_token_hint')).toBeTruthy();
    const after = await gqlAs(stack.url, browser.headers(), '{ me { name } }');
    expect(after.status).toBe(401);
    expect(after.errors?.[0].message).toContain('your session has ended');
    // The ended session's cookie is refused; a browser without one is simply not signed in.
    const ended = await fetch(`${stack.url}/auth/session`, { headers: { cookie: browser.jar.header() } });
    expect(ended.status).toBe(401);
    expect(await (await fetch(`${stack.url}/auth/session`)).json()).toEqual({ user: null, csrfToken: null });
  });

  it('deactivating a person refuses their next request, and their next sign-in', async () => {
    const person = await realm.user('leaver', [GROUP]);
    try {
      const browser = await signIn(stack.url, person);
      const me = await gqlAs<{ me: { userId: string } }>(stack.url, browser.headers(), '{ me { userId } }');
      const userId = me.data!.me.userId;
      await stack.query('mutation($id: ID!) { deactivateUser(id: $id) { status } }', { id: userId });
      const next = await gqlAs(stack.url, browser.headers(), '{ projects { id } }');
      expect(next.status).toBe(401);
      const again = await finishSignIn(await startSignIn(stack.url, person));
      expect(again.status).toBe(401);
      expect(await again.json()).toMatchObject({ error: { code: 'SIGN_IN_REFUSED', reason: 'DEACTIVATED' } });
    } finally {
      await realm.deleteUser(person.id);
    }
  });

  it('the audit log shows the sign-ins, the sign-out, the grant and the deactivation, with who and from where', async () => {
    const { auditEvents } = await stack.query<{
      auditEvents: {
        nodes: {
          action: string;
          outcome: string;
          actor: { kind: string; name: string };
          address: string | null;
        }[];
      };
    }>('{ auditEvents(first: 200) { nodes { action outcome address actor { kind name } } } }');
    const actions = auditEvents.nodes.map((e) => `${e.action} ${e.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'access.role_granted SUCCESS',
        'auth.sign_in SUCCESS',
        'auth.sign_out SUCCESS',
        'user.deactivated SUCCESS',
        'auth.refused DENIED',
        'auth.sign_in_failed DENIED',
      ]),
    );
    const signInEntry = auditEvents.nodes.find((e) => e.action === 'auth.sign_in')!;
    expect(signInEntry.actor.kind).toBe('USER');
    expect(signInEntry.address).toMatch(/127\.0\.0\.1/);
    const byKey = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ auditEvents(first: 5, filter: { action: "auth." }) { totalCount nodes { action } } }',
      }),
    });
    const filtered = (await byKey.json()) as { data: { auditEvents: { nodes: { action: string }[] } } };
    expect(filtered.data.auditEvents.nodes.every((e) => e.action.startsWith('auth.'))).toBe(true);
  });

  it('exports the audit log as JSON Lines that read back entry for entry as GraphQL shows them', async () => {
    await signIn(stack.url, reader);
    const response = await fetch(`${stack.url}/v1/audit.jsonl?action=auth.`, {
      headers: { 'x-api-key': ADMIN_KEY },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const exported = (await response.text()).trim().split('\n').map(parseAuditLine);
    const { auditEvents } = await stack.query<{ auditEvents: { nodes: Record<string, unknown>[] } }>(
      `{ auditEvents(first: 200, filter: { action: "auth." }) { nodes { id at action outcome code address userAgent projectId detail
          target { kind id } actor { kind id name credential credentialId } } } }`,
    );
    expect(exported.length).toBeGreaterThan(3);
    // The export is oldest first, the listing newest first: the same entries, field for field.
    expect(exported.slice(0, auditEvents.nodes.length)).toEqual(
      [...auditEvents.nodes].reverse().slice(0, exported.length),
    );
    // The export itself is in the log.
    const { auditEvents: after } = await stack.query<{
      auditEvents: { nodes: { action: string; outcome: string }[] };
    }>('{ auditEvents(first: 1) { nodes { action outcome } } }');
    expect(after.nodes[0]).toEqual({ action: 'export', outcome: 'SUCCESS' });
  });
});
