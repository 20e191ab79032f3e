import { TroveError, TroveErrorCode } from '@trove/domain';
import type { WebhookEventRecords } from './catalog.ports';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';

/**
 * The ids of webhook events already accepted, per source, so a delivery repeated within the replay
 * window (Notion retrying, or someone replaying captured bytes) is acknowledged but not applied
 * twice. Kept in the catalog rather than in api memory so the check holds across restarts and
 * several api instances: the primary key (source, event id) makes recording atomic.
 */
export class WebhookEventLog implements WebhookEventRecords {
  constructor(private readonly db: CatalogDb) {}

  /** Records the event; false when it was recorded before (a repeat). */
  async record(sourceId: string, eventId: string): Promise<boolean> {
    try {
      const inserted = await this.db
        .insertInto('webhook_events')
        .values({ source_id: sourceId, event_id: eventId })
        .onConflict((c) => c.doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return inserted !== undefined;
    } catch (error) {
      if (pgCode(error) === PgCode.foreignKeyViolation) {
        throw new TroveError(TroveErrorCode.SourceNotFound, `source ${sourceId} does not exist`, {
          permanent: true,
        });
      }
      return query('recording a webhook event', () => Promise.reject(error));
    }
  }

  /** Undoes `record` when the event could not be handed on, so Notion's retry is not taken for a repeat. */
  async forget(sourceId: string, eventId: string): Promise<void> {
    await query('forgetting a webhook event', () =>
      this.db
        .deleteFrom('webhook_events')
        .where('source_id', '=', sourceId)
        .where('event_id', '=', eventId)
        .execute(),
    );
  }

  /** Removes records older than `before`: events that old are refused by their timestamp anyway. */
  async purge(before: Date): Promise<void> {
    await query('purging webhook events', () =>
      this.db.deleteFrom('webhook_events').where('received_at', '<', before).execute(),
    );
  }
}
