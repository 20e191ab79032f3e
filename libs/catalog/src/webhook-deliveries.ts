import { sql } from 'kysely';
import { isTroveId } from '@trove/domain';
import type { WebhookDeliveryRecords } from './catalog.ports';
import type { CatalogDb } from './database';
import { query } from './database-error';

/** Longest event type kept: Notion's are short (`page.content_updated`); anything longer is cut. */
const MAX_EVENT_TYPE_LENGTH = 100;

/**
 * What each source's webhook has received, for the people who set it up: when the last event was
 * accepted and of what type, and how many deliveries were refused. Each write is one UPDATE, so
 * concurrent deliveries never lose a count; a source that does not exist is left alone.
 */
export class WebhookDeliveryLog implements WebhookDeliveryRecords {
  constructor(private readonly db: CatalogDb) {}

  async accepted(sourceId: string, eventType: string, at: Date = new Date()): Promise<void> {
    if (!isTroveId(sourceId)) return;
    await query('recording a webhook event', () =>
      this.db
        .updateTable('sources')
        .set({
          webhook_last_event_at: at.toISOString(),
          webhook_last_event_type: eventType.slice(0, MAX_EVENT_TYPE_LENGTH),
        })
        .where('id', '=', sourceId)
        .execute(),
    );
  }

  /** Adds `count` refused deliveries (a throttled burst is added in one update). */
  async rejected(sourceId: string, count = 1): Promise<void> {
    if (!isTroveId(sourceId) || count < 1) return;
    await query('counting a refused webhook delivery', () =>
      this.db
        .updateTable('sources')
        .set({ webhook_rejected_count: sql`webhook_rejected_count + ${count}` })
        .where('id', '=', sourceId)
        .execute(),
    );
  }
}
