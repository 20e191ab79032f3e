import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  guardedWrite,
  type SourceRecords,
  type WebhookDeliveryRecords,
  type WebhookEventRecords,
  type WriteChecks,
} from '@trove/catalog';
import type { ApiConfig, SecretBox } from '@trove/config';
import {
  ingestPriority,
  isTroveError,
  sourceEventsWorkflowId,
  type SourceEventsTiming,
  type Source,
  type SourceDefinitions,
  type SourceWebhook,
  TroveError,
  TroveErrorCode,
  type WebhookDelivery,
  webhookUnauthorized,
  WebhookRefused,
} from '@trove/domain';
import { SOURCE_RECORDS, WEBHOOK_DELIVERIES, WEBHOOK_EVENTS, WRITE_CHECKS } from '../core/catalog.providers';
import { CONFIG, SECRETS, SOURCE_DEFINITIONS, WORKFLOWS } from '../core/tokens';
import { WebhookRefusals } from './webhook-refusals';
import { errorCodeLabel, webhookDeliveries } from '@trove/metrics';
import type { WorkflowControl, WorkflowStarts } from '../core/workflows';

/**
 * Refusals of a delivery that are counted for the source: a bad or missing signature, a stale
 * timestamp, a malformed body, an unsolicited verification request. Our own failures (5xx) are not.
 */
const REFUSALS: ReadonlySet<string> = new Set([
  TroveErrorCode.Unauthenticated,
  TroveErrorCode.WebhookExpired,
  TroveErrorCode.BadRequest,
]);

/** What the webhook service asks of Temporal: hand events on, or stop the webhook workflow. */
export type WebhookWorkflows = Pick<WorkflowStarts, 'signalWithStart'> & Pick<WorkflowControl, 'cancel'>;

/** A delivery as the controller hands it over: the body may be missing (not JSON, empty). */
export interface IncomingDelivery extends Omit<WebhookDelivery, 'body'> {
  body: Buffer | undefined;
}

@Injectable()
export class SourceWebhookService {
  private readonly logger = new Logger('SourceWebhook');
  private lastPurge = 0;

  constructor(
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'getSource' | 'updateSource'>,
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveSource'>,
    /** Event ids already accepted (replays and retries are answered as duplicates). */
    @Inject(WEBHOOK_EVENTS) private readonly events: WebhookEventRecords,
    @Inject(WEBHOOK_DELIVERIES) private readonly deliveries: Pick<WebhookDeliveryRecords, 'accepted'>,
    @Inject(WORKFLOWS) private readonly workflows: WebhookWorkflows,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Inject(WebhookRefusals) private readonly refusals: WebhookRefusals,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
    /** Unset without TROVE_SECRET_KEY: then every delivery is refused (no secret can be kept). */
    @Inject(SECRETS) private readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'> | undefined,
  ) {}

  /**
   * A delivery for one source, verified by its type's definition. A verification handshake (the
   * first, unsigned, request of a subscription, e.g. Notion's) stores its secret, sealed (shown to
   * the admin through the API, to paste back into the sender); every later delivery must be signed with it. Events
   * become a signal to the source's webhook workflow, which debounces them; this returns as soon
   * as the signal is recorded. `routeType`: the type the delivery's address names (the older,
   * typed route); a source of another type refuses it as an unknown one.
   */
  async receive(
    sourceId: string,
    delivery: IncomingDelivery,
    address?: string,
    routeType?: string,
  ): Promise<string> {
    // The metric's label is a registered type's, never a value from the URL.
    let sourceType = 'unknown';
    try {
      const status = await this.receiveCounted(sourceId, delivery, address, (type) => {
        sourceType = type;
        return routeType === undefined || routeType.toLowerCase() === type;
      });
      webhookDeliveries.inc({ source_type: sourceType, outcome: 'accepted', code: 'none' });
      return status;
    } catch (error) {
      webhookDeliveries.inc({ source_type: sourceType, outcome: 'refused', code: errorCodeLabel(error) });
      throw error;
    }
  }

  private async receiveCounted(
    sourceId: string,
    delivery: IncomingDelivery,
    address: string | undefined,
    found: (type: string) => boolean,
  ): Promise<string> {
    await this.refusals.admit(sourceId, address);
    try {
      return await this.deliver(sourceId, delivery, found);
    } catch (error) {
      if (isTroveError(error) && REFUSALS.has(error.code)) {
        throw await this.refusals.refused(sourceId, address, error, refusalReason(error));
      }
      throw error;
    }
  }

  private async deliver(
    sourceId: string,
    { body, header }: IncomingDelivery,
    found: (type: string) => boolean,
  ): Promise<string> {
    const record = await this.sources.getSource(sourceId).catch((error: unknown) => {
      // A row this version cannot read (an unknown type) is no source to deliver to.
      if (isTroveError(error) && error.code === TroveErrorCode.Internal) return undefined;
      throw error;
    });
    // A source reached through another type's address is answered as an unknown one.
    const source = record && found(record.type.toLowerCase()) ? record : undefined;
    const webhook = source && this.webhookOf(source);
    if (!source || !webhook || !body || !this.secrets) throw webhookUnauthorized();
    // Nothing is accepted for a source or project being deleted (no state is revealed either).
    if (!(await this.writable(sourceId))) throw webhookUnauthorized();
    let secret: string | undefined;
    if (source.webhookToken) {
      try {
        secret = this.secrets.decrypt(source.webhookToken);
      } catch {
        // Sealed under another key: nothing can be verified, and the handshake stays closed.
        throw webhookUnauthorized('a webhook secret sealed under another TROVE_SECRET_KEY');
      }
    }
    const openedAt = Date.parse(source.webhookVerificationOpenedAt ?? source.createdAt);
    const { maxAgeMs, maxFutureMs, verificationWindowMs } = this.config.webhooks;
    const outcome = await webhook.receive(
      { body, header },
      {
        source,
        ...(secret !== undefined ? { secret } : {}),
        handshakeOpen: Date.now() - openedAt <= verificationWindowMs,
        maxAgeMs,
        maxFutureMs,
      },
    );

    if (outcome.kind === 'handshake') {
      await this.sources.updateSource(sourceId, { webhookToken: this.secrets.encrypt(outcome.secret) });
      this.logger.log(`stored the webhook verification token of source ${sourceId}`);
      return 'verification token stored';
    }
    await this.recordAccepted(sourceId, outcome.eventType);
    const { event, eventId } = outcome;
    if (!event || !eventId) return 'ignored';
    if (!(await this.events.record(sourceId, eventId))) return 'duplicate';
    this.purgeOldEvents();
    const { quietMs, maxDelayMs, historyLimit } = this.config.webhooks;
    const timing: SourceEventsTiming = { quietMs, maxDelayMs, historyLimit };
    const handOn = async () => {
      try {
        await this.workflows.signalWithStart('sourceEvents', 'sourceEvents', {
          taskQueue: this.config.temporal.taskQueue,
          workflowId: sourceEventsWorkflowId(sourceId),
          args: [sourceId, [], timing],
          signalArgs: [[event]],
          // Edited pages take turns with other projects' in the interactive lane.
          priority: ingestPriority(source.projectId),
        });
      } catch (error) {
        // Not handed on: the sender's retry of this event must not be taken for a repeat.
        await this.events.forget(sourceId, eventId).catch(() => undefined);
        throw error;
      }
    };
    try {
      await guardedWrite(this.writeChecks, { sourceId }, handOn, async (_, refusal) => {
        // Raced the start of a deletion, which may have stopped the webhook workflow already. A
        // catalog that could not say leaves the workflow (and the events it holds) alone.
        if (ownerRefused(refusal)) {
          await this.workflows.cancel(sourceEventsWorkflowId(sourceId));
        }
      });
    } catch (error) {
      if (ownerRefused(error)) throw webhookUnauthorized();
      throw error;
    }
    return 'accepted';
  }

  /** The webhook of the source's type; none for types without one. */
  private webhookOf(source: Source): SourceWebhook | undefined {
    return this.definitions.get(source.type).webhook;
  }

  /** A signed, fresh delivery: its time and type (never its payload) for the webhook panel. */
  private async recordAccepted(sourceId: string, type: string): Promise<void> {
    await this.deliveries.accepted(sourceId, type).catch((error: Error) => {
      this.logger.warn(`could not record a webhook event of source ${sourceId}: ${error.message}`);
    });
  }

  private async writable(sourceId: string): Promise<boolean> {
    try {
      await this.writeChecks.requireActiveSource(sourceId);
      return true;
    } catch (error) {
      if (ownerRefused(error)) return false;
      throw error;
    }
  }

  /** Event ids older than the replay window are useless: drop them now and then. */
  private purgeOldEvents(): void {
    const now = Date.now();
    if (now - this.lastPurge < 10 * 60_000) return;
    this.lastPurge = now;
    const { maxAgeMs, maxFutureMs } = this.config.webhooks;
    this.events
      .purge(new Date(now - 2 * (maxAgeMs + maxFutureMs)))
      .catch((error: Error) => this.logger.warn(`purging old webhook event ids failed: ${error.message}`));
  }
}

/** The catalog's answer that the source, or its project, takes no more writes (not a failure to answer). */
function ownerRefused(error: unknown): boolean {
  return error instanceof TroveError && error.code !== TroveErrorCode.ServiceUnavailable;
}

function refusalReason(error: TroveError): string {
  return error instanceof WebhookRefused ? error.reason : error.message;
}
