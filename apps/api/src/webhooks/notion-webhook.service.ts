import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Client as TemporalClient } from '@temporalio/client';
import { verifyWebhookSignature } from '@notionhq/client';
import { Catalog } from '@trove/catalog';
import { type ApiConfig, SecretBox } from '@trove/config';
import { SourceType, type NotionEvent } from '@trove/domain';
import {
  isTroveError,
  notionWebhookWorkflowId,
  type NotionWebhookTiming,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { CONFIG, TEMPORAL } from '../core/tokens';
import { WebhookRefusals } from './webhook-refusals';
import { errorCodeLabel, webhookDeliveries } from '@trove/metrics';
import { signalWithStart } from '../core/workflows';

/**
 * Refusals of a delivery that are counted for the source: a bad or missing signature, a stale
 * timestamp, a malformed body, an unsolicited verification request. Our own failures (5xx) are not.
 */
const REFUSALS: ReadonlySet<string> = new Set([
  TroveErrorCode.Unauthenticated,
  TroveErrorCode.WebhookExpired,
  TroveErrorCode.BadRequest,
]);

interface WebhookBody {
  verification_token?: unknown;
  id?: unknown;
  type?: unknown;
  timestamp?: unknown;
  entity?: { id?: unknown; type?: unknown };
  data?: { parent?: { id?: unknown } };
}

@Injectable()
export class NotionWebhookService {
  private readonly logger = new Logger('NotionWebhook');
  private readonly secrets?: SecretBox;
  private lastPurge = 0;

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(TEMPORAL) private readonly temporal: TemporalClient,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Inject(WebhookRefusals) private readonly refusals: WebhookRefusals,
  ) {
    if (config.secrets.key) this.secrets = new SecretBox(config.secrets.key);
  }

  /**
   * A delivery for one source. The first, unsigned, verification request stores its token (shown to
   * the admin through the API, to paste into Notion); every later delivery must carry a valid
   * `X-Notion-Signature` made with that token. Events become a signal to the source's webhook
   * workflow, which debounces them; this returns as soon as the signal is recorded.
   */
  async receive(
    sourceId: string,
    rawBody: Buffer | undefined,
    signature: string | undefined,
    address?: string,
  ): Promise<string> {
    try {
      const status = await this.receiveCounted(sourceId, rawBody, signature, address);
      webhookDeliveries.inc({ source_type: 'notion', outcome: 'accepted', code: 'none' });
      return status;
    } catch (error) {
      webhookDeliveries.inc({ source_type: 'notion', outcome: 'refused', code: errorCodeLabel(error) });
      throw error;
    }
  }

  private async receiveCounted(
    sourceId: string,
    rawBody: Buffer | undefined,
    signature: string | undefined,
    address?: string,
  ): Promise<string> {
    await this.refusals.admit(sourceId, address);
    try {
      return await this.deliver(sourceId, rawBody, signature);
    } catch (error) {
      if (isTroveError(error) && REFUSALS.has(error.code)) {
        throw await this.refusals.refused(sourceId, address, error, refusalReason(error));
      }
      throw error;
    }
  }

  private async deliver(
    sourceId: string,
    rawBody: Buffer | undefined,
    signature: string | undefined,
  ): Promise<string> {
    const source = await this.catalog.getSource(sourceId);
    if (!source || source.type !== SourceType.NOTION || !rawBody || !this.secrets) throw unauthorized();
    // Nothing is accepted for a source or project being deleted (no state is revealed either).
    if (!(await this.writable(sourceId))) throw unauthorized();
    let body: WebhookBody;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as WebhookBody;
    } catch {
      throw new TroveError(TroveErrorCode.BadRequest, 'the webhook body is not JSON');
    }

    if (typeof body.verification_token === 'string' && !signature) {
      // Only the first verification is accepted, and only while the source waits for one (after
      // its creation or resetNotionWebhook): an unsigned request could otherwise take the webhook over.
      if (source.webhookToken) throw unauthorized();
      const openedAt = Date.parse(source.webhookVerificationOpenedAt ?? source.createdAt);
      if (!(Date.now() - openedAt <= this.config.webhooks.verificationWindowMs)) {
        throw new RefusedDelivery(
          TroveErrorCode.Unauthenticated,
          'webhook verification is closed for this source; call resetNotionWebhook, then verify the subscription in Notion',
          'a verification request after the window closed',
        );
      }
      await this.catalog.updateSource(sourceId, {
        webhookToken: this.secrets.encrypt(body.verification_token),
      });
      this.logger.log(`stored the webhook verification token of source ${sourceId}`);
      return 'verification token stored';
    }

    if (!source.webhookToken) throw unauthorized();
    const valid = await verifyWebhookSignature({
      body: rawBody,
      signature,
      verificationToken: this.secrets.decrypt(source.webhookToken),
    });
    if (!valid) throw unauthorized('a bad or missing signature');

    this.checkFresh(body.timestamp);
    const event = toEvent(body);
    if (!event) {
      await this.recordAccepted(sourceId, body);
      return 'ignored';
    }
    const eventId = typeof body.id === 'string' && body.id ? body.id : undefined;
    if (!eventId) throw new TroveError(TroveErrorCode.BadRequest, 'the webhook event has no id');
    await this.recordAccepted(sourceId, body);
    if (!(await this.catalog.webhookEvents.record(sourceId, eventId))) return 'duplicate';
    this.purgeOldEvents();
    const { quietMs, maxDelayMs, historyLimit } = this.config.webhooks;
    const timing: NotionWebhookTiming = { quietMs, maxDelayMs, historyLimit };
    try {
      await signalWithStart(this.temporal, 'notionWebhookEvents', 'notionEvents', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: notionWebhookWorkflowId(sourceId),
        args: [sourceId, [], timing],
        signalArgs: [[event]],
      });
    } catch (error) {
      // Not handed on: Notion's retry of this event must not be taken for a repeat.
      await this.catalog.webhookEvents.forget(sourceId, eventId).catch(() => undefined);
      throw error;
    }
    if (!(await this.writable(sourceId))) {
      // Raced the start of a deletion, which may have stopped the webhook workflow already.
      await this.temporal.workflow
        .getHandle(notionWebhookWorkflowId(sourceId))
        .cancel()
        .catch(() => undefined);
      throw unauthorized();
    }
    return 'accepted';
  }

  /** A signed, fresh delivery: its time and type (never its payload) for the webhook panel. */
  private async recordAccepted(sourceId: string, body: WebhookBody): Promise<void> {
    const type = typeof body.type === 'string' && body.type ? body.type : 'unknown';
    await this.catalog.webhookDeliveries.accepted(sourceId, type).catch((error: Error) => {
      this.logger.warn(`could not record a webhook event of source ${sourceId}: ${error.message}`);
    });
  }

  private async writable(sourceId: string): Promise<boolean> {
    try {
      await this.catalog.requireActiveSource(sourceId);
      return true;
    } catch (error) {
      if (error instanceof TroveError && error.code !== TroveErrorCode.ServiceUnavailable) return false;
      throw error;
    }
  }

  /** Signed but stale (or from the future): a replay of captured bytes, refused. */
  private checkFresh(timestamp: unknown): void {
    const at = typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
    const { maxAgeMs, maxFutureMs } = this.config.webhooks;
    const age = Date.now() - at;
    if (Number.isNaN(at) || age > maxAgeMs || age < -maxFutureMs) {
      throw new RefusedDelivery(
        TroveErrorCode.WebhookExpired,
        `the webhook event's timestamp is missing or outside the accepted window (${maxAgeMs / 1000} s old to ${maxFutureMs / 1000} s ahead)`,
        'a timestamp outside the replay window',
      );
    }
  }

  /** Event ids older than the replay window are useless: drop them now and then. */
  private purgeOldEvents(): void {
    const now = Date.now();
    if (now - this.lastPurge < 10 * 60_000) return;
    this.lastPurge = now;
    const { maxAgeMs, maxFutureMs } = this.config.webhooks;
    this.catalog.webhookEvents
      .purge(new Date(now - 2 * (maxAgeMs + maxFutureMs)))
      .catch((error: Error) => this.logger.warn(`purging old webhook event ids failed: ${error.message}`));
  }
}

function toEvent(body: WebhookBody): NotionEvent | undefined {
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

/** A refusal whose log line (sampled by WebhookRefusals) says why, in more words than the client gets. */
class RefusedDelivery extends TroveError {
  constructor(
    code: TroveErrorCode,
    message: string,
    readonly reason: string,
  ) {
    super(code, message);
    this.name = 'RefusedDelivery';
  }
}

function unauthorized(reason = 'an unknown source, or one not verified or not accepting writes'): TroveError {
  return new RefusedDelivery(TroveErrorCode.Unauthenticated, 'webhook delivery not accepted', reason);
}

function refusalReason(error: TroveError): string {
  return error instanceof RefusedDelivery ? error.reason : error.message;
}
