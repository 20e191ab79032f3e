import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type SecretOpener,
  SourceDefinitions,
  SourceStatus,
  TroveErrorCode,
  type WebhookContext,
  type WebhookOutcome,
} from '@trove/domain';
import { gitSourceDefinition } from './git.definition';
import { GIT_SOURCE_TYPE, type GitSource } from './git-source';

const WEBHOOK_SECRET = 'a-webhook-secret-of-some-length';
const secrets: SecretOpener = { decrypt: (sealed) => sealed.replace(/^sealed:/, '') };
const seal = (plain: string) => ({ sealed: `sealed:${plain}`, hint: `${plain.slice(0, 2)}…` });
const roots = mkdtempSync(join(tmpdir(), 'trove-git-roots-'));
mkdirSync(join(roots, 'repo.git'));
afterAll(() => rmSync(roots, { recursive: true, force: true }));

/** Public hosts resolve to a public address; `internal.example` to a private one. */
const resolve = async (host: string) => {
  if (host === 'internal.example') return ['10.1.2.3'];
  if (host === 'nowhere.example') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return ['140.82.121.4'];
};
const definition = (allowInsecure = false, allowPrivateNetworks = false) =>
  gitSourceDefinition({ folderRoots: [roots], allowInsecure, allowPrivateNetworks, resolve, secrets });
const registry = (allowInsecure = false, allowPrivateNetworks = false) =>
  new SourceDefinitions([definition(allowInsecure, allowPrivateNetworks)], [GIT_SOURCE_TYPE]);

describe('the Git source definition', () => {
  it('stores a configuration with its secrets sealed and defaults filled in', async () => {
    const stored = await registry().configure(
      GIT_SOURCE_TYPE,
      { url: 'https://github.com/o/r.git', token: 'ghp_token_value', webhookSecret: WEBHOOK_SECRET },
      seal,
    );
    expect(stored).toEqual({
      url: 'https://github.com/o/r.git',
      exclude: [],
      maxRepositoryMb: 500,
      token: seal('ghp_token_value'),
      webhookSecret: seal(WEBHOOK_SECRET),
    });
    expect(registry().publicConfig(GIT_SOURCE_TYPE, stored)).not.toHaveProperty('token');
  });

  it.each([
    [{ url: 'http://example.com/r.git' }, 'config.url: http:// has no transport security'],
    [{ url: 'https://user:pw@example.com/r.git' }, 'config.url: no credentials in the URL'],
    [{ url: 'git@github.com:o/r.git', token: 't' }, 'config.token: a token is sent over https only'],
    [
      { url: 'https://github.com/o/r.git', deployKey: 'k' },
      'config.deployKey: a deploy key is used over ssh only',
    ],
    [{ url: '/etc' }, 'config.url: /etc is not an existing file or folder inside the folders'],
    [{ url: '--upload-pack=touch /tmp/x' }, 'config.url: must be a repository URL or path'],
    [{ url: 'https://github.com/o/r.git', branch: '-x' }, 'config.branch: not a branch name'],
    [{ url: 'https://github.com/o/r.git', colour: 'red' }, 'config.colour: unknown field'],
    [{ url: 'https://internal.example/r.git' }, 'internal.example is a private network address (10.1.2.3)'],
    [{ url: 'git@169.254.169.254:o/r.git' }, '169.254.169.254 is a private network address'],
    [{ url: 'https://nowhere.example/r.git' }, 'config.url: nowhere.example: no such host'],
  ])('refuses %j', async (config, message) => {
    await expect(registry().configure(GIT_SOURCE_TYPE, config, seal)).rejects.toThrow(message);
  });

  it('accepts http:// on a private address when both are allowed, and a repository path inside the roots', async () => {
    await expect(
      registry(true, true).configure(GIT_SOURCE_TYPE, { url: 'http://10.0.0.1/r.git' }, seal),
    ).resolves.toMatchObject({
      url: 'http://10.0.0.1/r.git',
    });
    await expect(
      registry().configure(GIT_SOURCE_TYPE, { url: join(roots, 'repo.git') }, seal),
    ).resolves.toMatchObject({ url: join(roots, 'repo.git') });
  });
});

function gitSource(branch?: string): GitSource {
  const now = new Date().toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    projectId: '00000000-0000-4000-8000-000000000000',
    name: 'r',
    status: SourceStatus.ACTIVE,
    type: GIT_SOURCE_TYPE,
    config: {
      url: 'https://github.com/o/r.git',
      exclude: [],
      maxRepositoryMb: 500,
      webhookSecret: seal(WEBHOOK_SECRET),
      ...(branch ? { branch } : {}),
    },
    createdAt: now,
    updatedAt: now,
  };
}

function receive(
  headers: Record<string, string>,
  body: object,
  source = gitSource(),
): Promise<WebhookOutcome> {
  const raw = Buffer.from(JSON.stringify(body));
  const context: WebhookContext = { source, handshakeOpen: false, maxAgeMs: 300_000, maxFutureMs: 60_000 };
  return definition().webhook!.receive({ body: raw, header: (name) => headers[name.toLowerCase()] }, context);
}

const sign = (body: object, secret = WEBHOOK_SECRET) =>
  createHmac('sha256', secret)
    .update(Buffer.from(JSON.stringify(body)))
    .digest('hex');

const push = {
  ref: 'refs/heads/main',
  after: '1111111111111111111111111111111111111111',
  repository: { default_branch: 'main' },
};

describe('Git push webhooks', () => {
  it('accepts a GitHub push signed with the secret as an event, and its ping as nothing to do', async () => {
    const outcome = await receive(
      { 'x-hub-signature-256': `sha256=${sign(push)}`, 'x-github-event': 'push', 'x-github-delivery': 'd-1' },
      push,
    );
    expect(outcome).toEqual({
      kind: 'event',
      eventType: 'push',
      eventId: 'd-1',
      event: expect.objectContaining({ type: 'push', entityId: push.after, entityType: 'commit' }),
    });
    const ping = { zen: 'hi' };
    expect(
      await receive({ 'x-hub-signature-256': `sha256=${sign(ping)}`, 'x-github-event': 'ping' }, ping),
    ).toEqual({ kind: 'event', eventType: 'ping' });
  });

  it('refuses a forged or missing signature (UNAUTHENTICATED)', async () => {
    const deliveries: Record<string, string>[] = [
      { 'x-hub-signature-256': `sha256=${sign(push, 'not-the-secret-at-all')}`, 'x-github-event': 'push' },
      { 'x-gitea-signature': sign({ ...push, after: 'f'.repeat(40) }), 'x-gitea-event': 'push' },
      { 'x-gitlab-token': 'not-the-secret', 'x-gitlab-event': 'Push Hook' },
      { 'x-github-event': 'push' },
    ];
    for (const headers of deliveries) {
      await expect(receive(headers, push)).rejects.toMatchObject({ code: TroveErrorCode.Unauthenticated });
    }
  });

  it('accepts GitLab (token) and Gitea (hex signature) pushes', async () => {
    const gitlab = {
      ref: 'refs/heads/main',
      checkout_sha: '2'.repeat(40),
      project: { default_branch: 'main' },
    };
    expect(
      await receive({ 'x-gitlab-token': WEBHOOK_SECRET, 'x-gitlab-event': 'Push Hook' }, gitlab),
    ).toMatchObject({ eventType: 'push', event: { entityId: '2'.repeat(40) } });
    expect(await receive({ 'x-gitea-signature': sign(push), 'x-gitea-event': 'push' }, push)).toMatchObject({
      eventType: 'push',
      event: { entityId: push.after },
    });
  });

  it('ignores a push to another branch than the synced one', async () => {
    const outcome = await receive(
      { 'x-hub-signature-256': `sha256=${sign(push)}`, 'x-github-event': 'push' },
      push,
      gitSource('release'),
    );
    expect(outcome).toEqual({ kind: 'event', eventType: 'push' });
    expect(outcome).not.toHaveProperty('event');
  });
});
