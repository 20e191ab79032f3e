import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  isSealedSecret,
  type SecretOpener,
  type SourceWebhook,
  type WebhookDelivery,
  TroveError,
  TroveErrorCode,
  webhookUnauthorized,
  type WebhookOutcome,
} from '@trove/domain';
import type { GitSourceConfig } from './git-source';

/** The event a verified push becomes: the connector turns it into an INCREMENTAL sync. */
export const GIT_PUSH_EVENT = 'push';

interface PushBody {
  ref?: unknown;
  after?: unknown;
  checkout_sha?: unknown;
  repository?: { default_branch?: unknown };
  project?: { default_branch?: unknown };
}

/**
 * Push webhooks of GitHub (`X-Hub-Signature-256`, HMAC-SHA256 of the body), Gitea and Forgejo
 * (`X-Gitea-Signature`, hex HMAC-SHA256) and GitLab (`X-Gitlab-Token`, the secret itself). Every
 * delivery is verified with the source's `webhookSecret`; a push to the synced branch is an event,
 * anything else (GitHub's ping, other branches, tags) is accepted and ignored.
 */
export function gitWebhook(secrets: SecretOpener | undefined): SourceWebhook {
  return {
    setup: {
      instructions:
        "Add a push webhook to the repository pointing at this URL, with the source's webhookSecret as its secret.",
      steps: [
        'Give the source a webhookSecret (16 characters or more) in its configuration, if it has none.',
        "In the repository's settings add a webhook with this URL, content type application/json and that secret (GitHub, Gitea and Forgejo: Secret; GitLab: Secret token).",
        'Choose push events: a push to the synced branch starts an INCREMENTAL sync; pings, tags and other branches are accepted and ignored.',
      ],
      verificationHandshake: false,
    },
    async receive(delivery, context): Promise<WebhookOutcome> {
      const config = context.source.config as GitSourceConfig;
      if (!secrets || !isSealedSecret(config.webhookSecret)) {
        throw webhookUnauthorized('no webhookSecret is configured for this source');
      }
      let secret: string;
      try {
        secret = secrets.decrypt(config.webhookSecret.sealed);
      } catch {
        throw webhookUnauthorized('a webhook secret sealed under another TROVE_SECRET_KEY');
      }
      const forge = verify(delivery, secret);
      const eventType = forge.event;
      if (eventType === 'ping') return { kind: 'event', eventType };
      if (!/^push( hook)?$/i.test(eventType)) return { kind: 'event', eventType };
      let body: PushBody;
      try {
        body = JSON.parse(delivery.body.toString('utf8')) as PushBody;
      } catch {
        throw new TroveError(TroveErrorCode.BadRequest, 'the push event is not JSON');
      }
      const branch =
        config.branch ?? str(body.repository?.default_branch) ?? str(body.project?.default_branch);
      const commit = str(body.checkout_sha) ?? str(body.after);
      if (!branch || body.ref !== `refs/heads/${branch}` || !commit) return { kind: 'event', eventType };
      return {
        kind: 'event',
        eventType: GIT_PUSH_EVENT,
        eventId: forge.deliveryId ?? `${GIT_PUSH_EVENT}:${commit}`,
        event: {
          type: GIT_PUSH_EVENT,
          entityId: commit,
          entityType: 'commit',
          timestamp: new Date().toISOString(),
        },
      };
    },
  };
}

/** Which forge sent the delivery, checked against the secret; throws UNAUTHENTICATED otherwise. */
function verify(delivery: WebhookDelivery, secret: string): { event: string; deliveryId?: string } {
  const github = delivery.header('x-hub-signature-256');
  if (github !== undefined) {
    if (!equal(github, `sha256=${hmac(secret, delivery.body)}`)) throw forged('X-Hub-Signature-256');
    return {
      event: delivery.header('x-github-event') ?? '',
      deliveryId: delivery.header('x-github-delivery'),
    };
  }
  const gitea = delivery.header('x-gitea-signature') ?? delivery.header('x-forgejo-signature');
  if (gitea !== undefined) {
    if (!equal(gitea, hmac(secret, delivery.body))) throw forged('X-Gitea-Signature');
    return {
      event: delivery.header('x-gitea-event') ?? delivery.header('x-forgejo-event') ?? '',
      deliveryId: delivery.header('x-gitea-delivery') ?? delivery.header('x-forgejo-delivery'),
    };
  }
  const gitlab = delivery.header('x-gitlab-token');
  if (gitlab !== undefined) {
    if (!equal(gitlab, secret)) throw forged('X-Gitlab-Token');
    return {
      event: delivery.header('x-gitlab-event') ?? '',
      deliveryId: delivery.header('x-gitlab-event-uuid') ?? delivery.header('x-gitlab-webhook-uuid'),
    };
  }
  throw webhookUnauthorized('no X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token header');
}

function hmac(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Constant-time comparison, whatever the lengths (digests of both are compared). */
function equal(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given === expected;
}

function forged(header: string) {
  return webhookUnauthorized(`${header} does not match the source's webhookSecret`);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
