import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import { ApiKeyRole, AuditOutcome, UserStatus } from '@trove/domain';
import { DATABASE_URL, dropTestData, schemaName, uniqueName } from '../../support/services';

// People, groups, grants, sessions and the audit log against the real PostgreSQL, in a schema of
// their own.
const name = uniqueName('identity');
let catalog: CatalogRepositories;

const identity = (subject: string, email: string, emailVerified = true) => ({
  provider: 'kc',
  issuer: 'https://idp.example/realms/x',
  subject,
  email,
  emailVerified,
  name: `Person ${subject}`,
});

beforeAll(async () => {
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

describe('people in the catalog', () => {
  it('provisions a person at first sign-in, finds them by issuer and subject after, and links one made ahead by verified email only', async () => {
    const first = await catalog.users.matchSignIn(identity('s1', 'ada@x.test'), true);
    expect(first).toMatchObject({ created: true, user: { email: 'ada@x.test', status: UserStatus.ACTIVE } });
    const again = await catalog.users.matchSignIn({ ...identity('s1', 'ada@x.test'), name: 'Ada L' }, true);
    expect(again).toMatchObject({ created: false, user: { id: first!.user.id, name: 'Ada L' } });

    const invited = await catalog.users.create({
      email: 'Grace@X.test',
      name: 'Grace',
      role: ApiKeyRole.ADMIN,
    });
    expect(await catalog.users.matchSignIn(identity('s2', 'grace@x.test', false), false)).toBeUndefined();
    const linked = await catalog.users.matchSignIn(identity('s2', 'grace@x.test'), false);
    expect(linked).toMatchObject({
      linked: true,
      user: { id: invited.id, role: ApiKeyRole.ADMIN, subject: 's2' },
    });
    expect(await catalog.users.matchSignIn(identity('s3', 'nobody@x.test'), false)).toBeUndefined();
  });

  it('gives each person their strongest role per project from their grants and their groups, and follows the groups claim', async () => {
    const project = await catalog.projects.createProject(`Access ${randomUUID().slice(0, 6)}`);
    const other = await catalog.projects.createProject(`Other ${randomUUID().slice(0, 6)}`);
    const { user } = (await catalog.users.matchSignIn(identity('s4', 'lin@x.test'), true))!;
    await catalog.users.syncProviderGroups(user.id, 'kc', ['docs', 'ops']);
    const docs = (await catalog.users.listGroups()).find((g) => g.name === 'docs' && g.provider === 'kc')!;
    await catalog.users.grant(project.id, { groupId: docs.id }, ApiKeyRole.EDITOR, 'test');
    await catalog.users.grant(project.id, { userId: user.id }, ApiKeyRole.VIEWER, 'test');
    await catalog.users.grant(other.id, { userId: user.id }, ApiKeyRole.VIEWER, 'test');
    expect(await catalog.users.access(user.id)).toMatchObject({
      projectRoles: { [project.id]: ApiKeyRole.EDITOR, [other.id]: ApiKeyRole.VIEWER },
      groups: ['docs', 'ops'],
    });
    // The next claim leaves the group: its role goes with it.
    await catalog.users.syncProviderGroups(user.id, 'kc', ['ops']);
    expect((await catalog.users.access(user.id))!.projectRoles[project.id]).toBe(ApiKeyRole.VIEWER);
    // A local group is untouched by claims, and a provider's group cannot be edited here.
    const local = await catalog.users.createLocalGroup('reviewers');
    await catalog.users.addMember(local.id, user.id);
    await catalog.users.syncProviderGroups(user.id, 'kc', []);
    expect((await catalog.users.access(user.id))!.groups).toEqual(['reviewers']);
    await expect(catalog.users.addMember(docs.id, user.id)).rejects.toThrow(
      /its members come from their sign-ins/,
    );
  });

  it('deactivating a person ends every session and token of theirs', async () => {
    const { user } = (await catalog.users.matchSignIn(identity('s5', 'sam@x.test'), true))!;
    const digest = createHash('sha256').update('x').digest();
    await catalog.sessions.createSession({
      id: randomUUID(),
      userId: user.id,
      provider: 'kc',
      secretSha256: digest,
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      revalidateAt: new Date(Date.now() + 300_000).toISOString(),
    });
    const token = await catalog.sessions.createToken({
      id: randomUUID(),
      userId: user.id,
      name: 't',
      secretSha256: digest,
    });
    await catalog.users.setStatus(user.id, UserStatus.DEACTIVATED);
    expect(await catalog.sessions.openSessions(user.id)).toEqual([]);
    expect((await catalog.sessions.getToken(token.id))!.revokedAt).toBeDefined();
  });

  it('takes a sign-in under way once: a second callback finds it used', async () => {
    const id = randomUUID().replace(/-/g, '');
    await catalog.sessions.startLogin({
      id,
      provider: 'kc',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      bindingSha256: createHash('sha256').update('b').digest(),
    });
    expect(await catalog.sessions.consumeLogin(id, 600_000)).toMatchObject({ ok: true });
    expect(await catalog.sessions.consumeLogin(id, 600_000)).toEqual({ ok: false, reason: 'used' });
    expect(await catalog.sessions.consumeLogin('nope', 600_000)).toEqual({ ok: false, reason: 'unknown' });
  });
});

describe('the audit log in the catalog', () => {
  it('is append-only: updates and deletes are refused; only the retention purge removes entries', async () => {
    const entry = {
      actor: {
        kind: 'ANONYMOUS' as const,
        id: null,
        name: 'anonymous',
        credential: null,
        credentialId: null,
      },
      address: '127.0.0.1',
      userAgent: null,
      action: 'auth.refused' as const,
      target: null,
      projectId: null,
      outcome: AuditOutcome.DENIED,
      code: 'UNAUTHENTICATED',
      detail: { reason: 'test' },
    };
    await catalog.audit.append(entry);
    await catalog.audit.append({
      ...entry,
      action: 'auth.sign_in',
      outcome: AuditOutcome.SUCCESS,
      code: null,
    });
    await expect(
      sql`update audit_events set actor_name = 'someone else'`.execute(catalog.lifecycle.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_events`.execute(catalog.lifecycle.db)).rejects.toThrow(/append-only/);
    const page = await catalog.audit.page({ action: 'auth.refused' }, { first: 10 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      outcome: 'DENIED',
      detail: { reason: 'test' },
      actor: { kind: 'ANONYMOUS' },
    });
    const exported = [];
    for await (const event of catalog.audit.each({ actionPrefix: 'auth.' })) exported.push(event);
    expect(exported.map((e) => e.action)).toEqual(['auth.refused', 'auth.sign_in']);
    expect(await catalog.audit.purgeBefore(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(2);
    expect((await catalog.audit.page({}, { first: 10 })).totalCount).toBe(0);
  });

  it('counts searches and asks per actor, project and day', async () => {
    const actor = {
      kind: 'USER' as const,
      id: randomUUID(),
      name: 'Ada',
      credential: null,
      credentialId: null,
    };
    await catalog.audit.countQuery(actor, 'p1', 'search');
    await catalog.audit.countQuery(actor, 'p1', 'search');
    await catalog.audit.countQuery(actor, 'p1', 'ask');
    const counts = await catalog.audit.queryCounts({ projectId: 'p1' });
    expect(counts).toEqual([
      expect.objectContaining({
        projectId: 'p1',
        searches: 2,
        asks: 1,
        actor: expect.objectContaining({ id: actor.id }),
      }),
    ]);
  });
});
