import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Client as TemporalClient } from '@temporalio/client';
import { verifyWebhookSignature } from '@notionhq/client';
import { Catalog } from '@trove/catalog';
import { type ApiConfig, SecretBox } from '@trove/config';
import { SourceType, type NotionEvent } from '@trove/domain';
import {
  NOTION_EVENTS_SIGNAL,
  NOTION_WEBHOOK_WORKFLOW,
  notionWebhookWorkflowId,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { CONFIG, TEMPORAL } from '../core/tokens';

interface WebhookBody {
  verification_token?: unknown;
  type?: unknown;
  timestamp?: unknown;
  entity?: { id?: unknown; type?: unknown };
  data?: { parent?: { id?: unknown } };
}

@Injectable()
export class NotionWebhookService {
  private readonly logger = new Logger('NotionWebhook');
  private readonly secrets?: SecretBox;

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(TEMPORAL) private readonly temporal: TemporalClient,
    @Inject(CONFIG) private readonly config: ApiConfig,
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
      // Only the first verification is accepted; resetNotionWebhook allows a new subscription.
      if (source.webhookToken) throw unauthorized();
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
    if (!valid) {
      this.logger.warn(`rejected a webhook delivery with a bad or missing signature for source ${sourceId}`);
      throw unauthorized();
    }

    const event = toEvent(body);
    if (!event) return 'ignored';
    await this.temporal.workflow.signalWithStart(NOTION_WEBHOOK_WORKFLOW, {
      taskQueue: this.config.temporal.taskQueue,
      workflowId: notionWebhookWorkflowId(sourceId),
      args: [sourceId],
      signal: NOTION_EVENTS_SIGNAL,
      signalArgs: [[event]],
    });
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

  private async writable(sourceId: string): Promise<boolean> {
    try {
      await this.catalog.requireActiveSource(sourceId);
      return true;
    } catch (error) {
      if (error instanceof TroveError && error.code !== TroveErrorCode.ServiceUnavailable) return false;
      throw error;
    }
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
    timestamp: typeof body.timestamp === 'string' ? body.timestamp : new Date().toISOString(),
    ...(typeof body.data?.parent?.id === 'string' ? { parentId: body.data.parent.id } : {}),
  };
}

function unauthorized(): TroveError {
  return new TroveError(TroveErrorCode.Unauthenticated, 'webhook delivery not accepted');
}
