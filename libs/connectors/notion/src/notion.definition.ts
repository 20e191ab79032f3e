import { verifyWebhookSignature } from '@notionhq/client';
import { z } from 'zod/v4';
import {
  type SourceConfig,
  type SourceDefinition,
  type SourceEvent,
  type SourceWebhook,
  TroveError,
  TroveErrorCode,
  webhookUnauthorized,
  WebhookRefused,
} from '@trove/domain';
import { normalizeNotionId } from './notion-client';
import { NOTION_SOURCE_TYPE } from './notion-source';

/** A page or database id, or a Notion URL, normalised to the id. */
const notionId = z.string().transform((value, ctx) => {
  try {
    return normalizeNotionId(value);
  } catch {
    ctx.issues.push({ code: 'custom', message: 'not a Notion page or database id or URL', input: value });
    return z.NEVER;
  }
});

const configSchema = z.strictObject({
  token: z
    .string()
    .trim()
    .min(20, 'the Notion token looks too short')
    .describe('Internal integration token (ntn_… or secret_…)'),
  rootPageIds: z
    .array(notionId)
    .default([])
    .describe(
      'Pages to sync, by id or URL; with no pages and no databases: everything shared with the integration',
    ),
  rootDatabaseIds: z.array(notionId).default([]).describe('Databases to sync, by id or URL'),
});

/** What a Notion source is configured with: its token and the pages and databases to sync. */
export function notionSourceDefinition(): SourceDefinition {
  return {
    type: NOTION_SOURCE_TYPE,
    label: 'Notion workspace',
    description:
      'Pages and databases shared with a Notion integration; webhooks keep it current between syncs.',
    configSchema,
    secretFields: ['token'],
    async prepare(config: SourceConfig): Promise<SourceConfig> {
      const { token, rootPageIds, rootDatabaseIds } = config as z.output<typeof configSchema>;
      const databases = [...new Set(rootDatabaseIds)];
      const pages = [...new Set(rootPageIds.filter((id) => !databases.includes(id)))];
      return {
        token,
        everything: pages.length === 0 && databases.length === 0,
        rootPageIds: pages,
        rootDatabaseIds: databases,
      };
    },
    summarize(config: SourceConfig): string {
      const {
        everything,
        rootPageIds = [],
        rootDatabaseIds = [],
      } = config as {
        everything?: boolean;
        rootPageIds?: string[];
        rootDatabaseIds?: string[];
      };
      if (everything) return 'every page shared with the integration';
      return `Notion roots ${[...rootPageIds, ...rootDatabaseIds].join(', ')}`;
    },
    webhook: notionWebhook,
  };
}

interface WebhookBody {
  verification_token?: unknown;
  id?: unknown;
  type?: unknown;
  timestamp?: unknown;
  entity?: { id?: unknown; type?: unknown };
  data?: { parent?: { id?: unknown } };
}

/**
 * Notion's webhook: the first, unsigned, verification request carries the token every later
 * delivery is signed with (`X-Notion-Signature`, HMAC-SHA256 of the body).
 */
const notionWebhook: SourceWebhook = {
  setup: {
    instructions:
      "Create a Notion webhook subscription pointing at this URL; Notion's verification token then shows here, to paste back into Notion.",
    steps: [
      "In the integration's settings at notion.so/profile/integrations, open Webhooks and create a subscription with this URL.",
      'Notion sends a verification request: its token shows here (it is accepted within TROVE_WEBHOOK_VERIFICATION_WINDOW_MS of the source being added, or of "Accept a new subscription").',
      "Paste the token into Notion's Verify dialog: signed events then keep the source current between syncs.",
    ],
    verificationHandshake: true,
  },
  async receive(delivery, context) {
    let body: WebhookBody;
    try {
      body = JSON.parse(delivery.body.toString('utf8')) as WebhookBody;
    } catch {
      throw new TroveError(TroveErrorCode.BadRequest, 'the webhook body is not JSON');
    }
    const signature = delivery.header('x-notion-signature');

    if (typeof body.verification_token === 'string' && !signature) {
      // Only the first verification is accepted, and only while the source waits for one (after
      // its creation or a reset): an unsigned request could otherwise take the webhook over.
      if (context.secret) throw webhookUnauthorized();
      if (!context.handshakeOpen) {
        throw new WebhookRefused(
          TroveErrorCode.Unauthenticated,
          'webhook verification is closed for this source; call resetWebhookVerification, then verify the subscription in Notion',
          'a verification request after the window closed',
        );
      }
      return { kind: 'handshake', secret: body.verification_token };
    }

    if (!context.secret) throw webhookUnauthorized();
    const valid = await verifyWebhookSignature({
      body: delivery.body,
      signature,
      verificationToken: context.secret,
    });
    if (!valid) throw webhookUnauthorized('a bad or missing signature');

    checkFresh(body.timestamp, context.maxAgeMs, context.maxFutureMs);
    const eventType = typeof body.type === 'string' && body.type ? body.type : 'unknown';
    const event = toEvent(body);
    if (!event) return { kind: 'event', eventType };
    const eventId = typeof body.id === 'string' && body.id ? body.id : undefined;
    if (!eventId) throw new TroveError(TroveErrorCode.BadRequest, 'the webhook event has no id');
    return { kind: 'event', eventType, eventId, event };
  },
};

/** Signed but stale (or from the future): a replay of captured bytes, refused. */
function checkFresh(timestamp: unknown, maxAgeMs: number, maxFutureMs: number): void {
  const at = typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  const age = Date.now() - at;
  if (Number.isNaN(at) || age > maxAgeMs || age < -maxFutureMs) {
    throw new WebhookRefused(
      TroveErrorCode.WebhookExpired,
      `the webhook event's timestamp is missing or outside the accepted window (${maxAgeMs / 1000} s old to ${maxFutureMs / 1000} s ahead)`,
      'a timestamp outside the replay window',
    );
  }
}

function toEvent(body: WebhookBody): SourceEvent | undefined {
  const type = typeof body.type === 'string' ? body.type : undefined;
  const id = typeof body.entity?.id === 'string' ? body.entity.id : undefined;
  if (!type || !id) return undefined;
  return {
    type,
    entityId: id,
    entityType: typeof body.entity?.type === 'string' ? body.entity.type : 'page',
    timestamp: body.timestamp as string, // checked by checkFresh
    ...(typeof body.data?.parent?.id === 'string' ? { parentId: body.data.parent.id } : {}),
  };
}
