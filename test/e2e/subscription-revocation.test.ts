import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/services';
import {
  ensureKeycloak,
  gqlAs,
  identityEnv,
  PROVIDER_ID,
  RealmAdmin,
  signIn,
} from '../support/identity-provider';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// A subscription outlives the check made when it started: revoking its key, or deactivating its
// person, must end it.
const stack = new TroveStack({ TROVE_FOLDER_ROOTS: join(ROOT, 'samples'), ...identityEnv() });
let projectId: string;
let sourceId: string;

beforeAll(async () => {
  ensureKeycloak();
  await stack.start();
  projectId = await stack.createProject('Revocation');
  ({ id: sourceId } = await stack.addSource({
    projectId,
    name: 'Handbook',
    type: 'FOLDER',
    config: { path: join(ROOT, 'samples', 'handbook-site') },
  }));
});
afterAll(() => stack.stop());

async function createKey(name: string): Promise<{ id: string; secret: string }> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string; apiKey: { id: string } } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
    { input: { name, role: 'VIEWER', projectIds: [projectId] } },
  );
  return { id: createApiKey.apiKey.id, secret: createApiKey.secret };
}

interface Followed {
  updates: { status: string }[];
  /** Settles when the server ends the subscription: its error, or nothing when it completed. */
  ended: Promise<{ error?: unknown }>;
  dispose(): void;
}

/** `syncRunUpdates` over graphql-ws with `key` (or a bearer token), as the dashboard opens it. */
function follow(runId: string, key: string): Followed {
  const client = createClient({
    url: `${stack.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: key.startsWith('trove_pat_')
      ? { Authorization: `Bearer ${key}` }
      : { 'X-API-Key': key },
    retryAttempts: 0,
  });
  const updates: { status: string }[] = [];
  const ended = new Promise<{ error?: unknown }>((resolve) => {
    client.subscribe<{ syncRunUpdates: { status: string } }>(
      { query: `subscription { syncRunUpdates(id: "${runId}") { id status } }` },
      {
        next: (result) => {
          if (result.data) updates.push(result.data.syncRunUpdates);
          if (result.errors) resolve({ error: result.errors });
        },
        error: (error) => resolve({ error }),
        complete: () => resolve({}),
      },
    );
  });
  return { updates, ended, dispose: () => void client.dispose() };
}

/** `promise`, or a failure naming `what` once `ms` have passed: a bound on a hang, not a speed. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(what)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('a revoked key ends its open subscription', () => {
  it('ends the revoked key’s syncRunUpdates with UNAUTHENTICATED; another key’s goes on', async () => {
    // Without a worker the run stays RUNNING: nothing but the revocation can end the subscription.
    await stack.killWorker();
    let workerStarted = false;
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: sourceId },
    );
    const viewer = await createKey('live viewer');
    const revoked = follow(syncSource.id, viewer.secret);
    const admin = follow(syncSource.id, ADMIN_KEY);
    try {
      await expect.poll(() => revoked.updates.length, { timeout: 60_000 }).toBeGreaterThan(0);
      await expect.poll(() => admin.updates.length, { timeout: 60_000 }).toBeGreaterThan(0);
      expect(revoked.updates[0].status).toBe('RUNNING');

      await stack.query('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: viewer.id });
      // Re-checked at least every 5 s while the run does not change (pinned in
      // sync-run-updates.spec.ts); a minute only bounds a hang.
      const end = await within(revoked.ended, 60_000, 'the subscription outlived its key');
      expect(JSON.stringify(end.error)).toContain('UNAUTHENTICATED');
      expect(JSON.stringify(end.error)).toContain('the API key was revoked');
      const revokedUpdates = revoked.updates.length;

      // The admin key's subscription to the same run goes on: once the worker is back, it follows
      // the run to its end, its key confirmed again before each of those updates.
      stack.startWorker();
      workerStarted = true;
      const adminEnd = await within(admin.ended, 240_000, 'the admin subscription never ended');
      expect(adminEnd.error).toBeUndefined();
      expect(admin.updates.at(-1)?.status).toBe('COMPLETED');
      expect(revoked.updates).toHaveLength(revokedUpdates);

      // And the revoked key cannot open a new connection.
      const again = follow(syncSource.id, viewer.secret);
      const refused = await again.ended;
      expect((refused.error as { code?: number }).code).toBe(4403);
      again.dispose();
    } finally {
      revoked.dispose();
      admin.dispose();
      if (!workerStarted) stack.startWorker();
    }
    expect((await stack.runSettled(syncSource.id)).status).toBe('COMPLETED');
  });
});

describe('a deactivated person loses their open subscription', () => {
  it('ends the person’s syncRunUpdates (opened with their personal token) at their deactivation', async () => {
    const realm = new RealmAdmin();
    const group = `live-${Date.now().toString(36)}`;
    await stack.query('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
      input: { projectId, groupName: group, groupProvider: PROVIDER_ID, role: 'VIEWER' },
    });
    const person = await realm.user('watcher', [group]);
    await stack.killWorker();
    let workerStarted = false;
    try {
      const browser = await signIn(stack.url, person);
      const made = await gqlAs<{ createPersonalToken: { secret: string } }>(
        stack.url,
        browser.headers(),
        'mutation { createPersonalToken(input: { name: "watch" }) { secret } }',
      );
      const me = await gqlAs<{ me: { userId: string } }>(stack.url, browser.headers(), '{ me { userId } }');
      const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
        'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
        { id: sourceId },
      );
      const watched = follow(syncSource.id, made.data!.createPersonalToken.secret);
      try {
        await expect.poll(() => watched.updates.length, { timeout: 60_000 }).toBeGreaterThan(0);
        await stack.query('mutation($id: ID!) { deactivateUser(id: $id) { id } }', {
          id: me.data!.me.userId,
        });
        const end = await within(watched.ended, 60_000, 'the subscription outlived its person');
        expect(JSON.stringify(end.error)).toContain('UNAUTHENTICATED');
      } finally {
        watched.dispose();
      }
      stack.startWorker();
      workerStarted = true;
      expect((await stack.runSettled(syncSource.id)).status).toBe('COMPLETED');
    } finally {
      if (!workerStarted) stack.startWorker();
      await realm.deleteUser(person.id).catch(() => undefined);
    }
  });
});
