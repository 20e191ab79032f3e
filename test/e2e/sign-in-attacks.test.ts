import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '../support/services';
import {
  ensureKeycloak,
  finishSignIn,
  gqlAs,
  identityEnv,
  PROVIDER_ID,
  RealmAdmin,
  type RealmUser,
  signIn,
  startSignIn,
} from '../support/identity-provider';
import { TroveStack } from '../support/stack';

// Each attack on sign-in and on people's access is refused with a clear error, and leaves an
// audit entry. Sessions ask the provider again every second here, so a group change at the
// provider shows on the next requests.

const stack = new TroveStack(identityEnv({ TROVE_SESSION_REVALIDATE_SECONDS: '1' }));
const realm = new RealmAdmin();
const GROUP = `attack-readers-${randomBytes(3).toString('hex')}`;
let project: string;
let person: RealmUser;
const people: RealmUser[] = [];

interface Entry {
  action: string;
  outcome: string;
  code: string | null;
  detail: Record<string, unknown> | null;
}

/** The newest audit entries (newest first). */
async function audit(first = 30): Promise<Entry[]> {
  const { auditEvents } = await stack.query<{ auditEvents: { nodes: Entry[] } }>(
    'query($first: Int!) { auditEvents(first: $first) { nodes { action outcome code detail } } }',
    { first },
  );
  return auditEvents.nodes;
}

/** The JSON error of a refused callback. */
async function refusal(response: Response) {
  return (await response.json()) as { error: { code: string; reason?: string; message: string } };
}

beforeAll(async () => {
  ensureKeycloak();
  await stack.start({ worker: false });
  project = await stack.createProject('Attacked');
  await stack.query('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
    input: { projectId: project, groupName: GROUP, groupProvider: PROVIDER_ID, role: 'VIEWER' },
  });
  person = await realm.user('target', [GROUP]);
  people.push(person);
}, 600_000);

afterAll(async () => {
  for (const user of people) await realm.deleteUser(user.id).catch(() => undefined);
  await stack.stop();
});

describe('attacks on signing in', () => {
  it('a replayed answer (the same callback twice) is refused: the sign-in was completed already', async () => {
    const pending = await startSignIn(stack.url, person);
    expect((await finishSignIn(pending)).status).toBe(303);
    const replay = await fetch(pending.callbackUrl, {
      redirect: 'manual',
      headers: { cookie: pending.jar.header() },
    });
    expect(replay.status).toBe(401);
    expect(await refusal(replay)).toMatchObject({ error: { code: 'SIGN_IN_REFUSED', reason: 'STATE_USED' } });
    expect((await audit(5)).find((e) => e.action === 'auth.sign_in_failed')).toMatchObject({
      outcome: 'DENIED',
      code: 'SIGN_IN_REFUSED',
      detail: { reason: 'STATE_USED' },
    });
  });

  it('a replayed authorization code under a fresh sign-in is refused by the provider', async () => {
    const first = await startSignIn(stack.url, person);
    expect((await finishSignIn(first)).status).toBe(303);
    const second = await startSignIn(stack.url, person);
    const usedCode = new URL(first.callbackUrl).searchParams.get('code')!;
    const swapped = new URL(second.callbackUrl);
    swapped.searchParams.set('code', usedCode);
    const replay = await fetch(swapped, { redirect: 'manual', headers: { cookie: second.jar.header() } });
    expect(replay.status).toBe(401);
    const body = await refusal(replay);
    expect(body.error).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'CODE_REJECTED' });
    expect(body.error.message).toContain('invalid_grant');
  });

  it('a wrong state is refused: it names no sign-in started here', async () => {
    const pending = await startSignIn(stack.url, person);
    const forged = new URL(pending.callbackUrl);
    forged.searchParams.set('state', randomBytes(32).toString('base64url'));
    const response = await fetch(forged, { redirect: 'manual', headers: { cookie: pending.jar.header() } });
    expect(await refusal(response)).toMatchObject({
      error: { code: 'SIGN_IN_REFUSED', reason: 'UNKNOWN_STATE' },
    });
  });

  it('login CSRF: an answer carried to another browser (without its login cookie) does not sign that browser in', async () => {
    const attackers = await startSignIn(stack.url, person);
    const victim = await fetch(attackers.callbackUrl, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(victim.status).toBe(303);
    expect(victim.headers.get('location')).toBe('/?signInError=NOT_THIS_BROWSER');
    expect(victim.headers.getSetCookie().some((c) => c.startsWith('trove_session='))).toBe(false);
    expect((await audit(5)).find((e) => e.action === 'auth.sign_in_failed')?.detail).toMatchObject({
      reason: 'NOT_THIS_BROWSER',
    });
  });

  it('an open redirect through the return address is refused before the provider is asked', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example', '/\\evil.example']) {
      const response = await fetch(
        `${stack.url}/auth/login/${PROVIDER_ID}?returnTo=${encodeURIComponent(returnTo)}`,
        { redirect: 'manual' },
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        'returnTo must be a path on this site',
      );
    }
    expect((await audit(5))[0]).toMatchObject({
      action: 'auth.sign_in_failed',
      detail: { reason: 'OPEN_REDIRECT' },
    });
  });

  it('a session cookie from another install (another secret key) is refused before any lookup', async () => {
    const browser = await signIn(stack.url, person);
    const cookie = browser.jar.get('trove_session')!;
    const [id, secret] = cookie.split('.');
    const otherKey = randomBytes(32);
    const mac = createHmac('sha256', otherKey).update(`${id}.${secret}`).digest('base64url');
    const foreign = await gqlAs(
      stack.url,
      { cookie: `trove_session=${id}.${secret}.${mac}`, 'x-csrf-token': browser.csrf },
      '{ me { name } }',
    );
    expect(foreign.status).toBe(401);
    expect(foreign.errors?.[0].message).toContain('not issued by this Trove install');
    expect((await audit(5))[0]).toMatchObject({ action: 'auth.refused', detail: { credential: 'session' } });
  });

  it('a request of a session without its CSRF token is refused as cross-site', async () => {
    const browser = await signIn(stack.url, person);
    const forged = await gqlAs(stack.url, { cookie: browser.jar.header() }, '{ me { name } }');
    expect(forged.status).toBe(403);
    expect(forged.errors?.[0].message).toContain('CSRF');
    expect((await audit(5))[0]).toMatchObject({ action: 'access.denied', outcome: 'DENIED' });
  });
});

describe('attacks on access', () => {
  it('a person removed from the group at the provider loses its access mid-session', async () => {
    const leaver = await realm.user('leaver', [GROUP]);
    people.push(leaver);
    const browser = await signIn(stack.url, leaver);
    const reach = () =>
      gqlAs<{ project: { id: string } | null }>(
        stack.url,
        browser.headers(),
        'query($id: ID!) { project(id: $id) { id } }',
        {
          id: project,
        },
      );
    expect((await reach()).data?.project?.id).toBe(project);
    await realm.removeFromGroup(leaver.id, GROUP);
    // The session asks the provider again (every second here); its groups claim no longer names the group.
    await expectEventually(async () => expect((await reach()).data).toEqual({ project: null }), {
      timeoutMs: 60_000,
    });
  });

  it('a VIEWER cannot grant themselves a role: FORBIDDEN, and recorded', async () => {
    const browser = await signIn(stack.url, person);
    const { data } = await gqlAs<{ me: { userId: string } }>(
      stack.url,
      browser.headers(),
      '{ me { userId } }',
    );
    const grant = await gqlAs(
      stack.url,
      browser.headers(),
      'mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }',
      { input: { projectId: project, userId: data!.me.userId, role: 'ADMIN' } },
    );
    expect(grant.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(grant.errors?.[0].message).toContain('it needs ADMIN permission');
    expect((await audit(5))[0]).toMatchObject({
      action: 'access.denied',
      outcome: 'DENIED',
      code: 'FORBIDDEN',
    });
    const { projectAccess } = await stack.query<{
      projectAccess: { role: string; user: { id: string } | null }[];
    }>('query($p: ID!) { projectAccess(projectId: $p) { role user { id } } }', { p: project });
    expect(projectAccess.some((g) => g.user?.id === data!.me.userId)).toBe(false);
  });

  it('a personal token is refused once its owner is deactivated', async () => {
    const owner = await realm.user('owner', [GROUP]);
    people.push(owner);
    const browser = await signIn(stack.url, owner);
    const made = await gqlAs<{ createPersonalToken: { secret: string } }>(
      stack.url,
      browser.headers(),
      'mutation { createPersonalToken(input: { name: "script" }) { secret } }',
    );
    const token = made.data!.createPersonalToken.secret;
    const asToken = () =>
      gqlAs(stack.url, { authorization: `Bearer ${token}` }, '{ me { credential userId } }');
    const before = await asToken();
    expect(before.data).toMatchObject({ me: { credential: 'PERSONAL_TOKEN' } });
    const userId = (before.data as { me: { userId: string } }).me.userId;
    await stack.query('mutation($id: ID!) { deactivateUser(id: $id) { id } }', { id: userId });
    const after = await asToken();
    expect(after.status).toBe(401);
    expect(after.errors?.[0].message).toContain('the owner of this personal token is deactivated');
    expect((await audit(5))[0]).toMatchObject({
      action: 'auth.refused',
      detail: { credential: 'personal-token' },
    });
  });

  it('a personal token cannot make more tokens, and an API key cannot make one at all', async () => {
    const browser = await signIn(stack.url, person);
    const made = await gqlAs<{ createPersonalToken: { secret: string } }>(
      stack.url,
      browser.headers(),
      'mutation { createPersonalToken(input: { name: "ci", expiresInDays: 7 }) { secret } }',
    );
    const token = made.data!.createPersonalToken.secret;
    const again = await gqlAs(
      stack.url,
      { authorization: `Bearer ${token}` },
      'mutation { createPersonalToken(input: { name: "more" }) { secret } }',
    );
    expect(again.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const byKey = await stack.gql('mutation { createPersonalToken(input: { name: "key" }) { secret } }');
    expect(byKey.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });
});
