import { createHash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { errors } from '@elastic/elasticsearch';
import { deleteMatching, elasticsearchError } from '@trove/search';

/**
 * The ids of webhook events already accepted, per source, so a delivery repeated within the replay
 * window (Notion retrying, or someone replaying captured bytes) is acknowledged but not applied
 * twice. Kept in Elasticsearch rather than in api memory so the check holds across restarts and
 * several api instances: `op_type: create` on an id derived from (source, event id) is atomic.
 */
export class WebhookEventLog {
  constructor(
    private readonly es: Client,
    readonly index: string,
  ) {}

  /** The mapping, created by `Catalog.ensure()`. */
  static readonly properties = {
    sourceId: { type: 'keyword' as const },
    eventId: { type: 'keyword' as const },
    receivedAt: { type: 'date' as const },
  };

  /** Records the event; false when it was recorded before (a repeat). */
  async record(sourceId: string, eventId: string): Promise<boolean> {
    try {
      await this.es.create({
        index: this.index,
        id: recordId(sourceId, eventId),
        document: { sourceId, eventId, receivedAt: new Date().toISOString() },
      });
      return true;
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 409) return false;
      throw elasticsearchError(error, 'recording a webhook event');
    }
  }

  /** Undoes `record` when the event could not be handed on, so Notion's retry is not taken for a repeat. */
  async forget(sourceId: string, eventId: string): Promise<void> {
    try {
      await this.es.delete({ index: this.index, id: recordId(sourceId, eventId) }, { ignore: [404] });
    } catch (error) {
      throw elasticsearchError(error, 'forgetting a webhook event');
    }
  }

  /** Removes records older than `before`: events that old are refused by their timestamp anyway. */
  async purge(before: Date): Promise<void> {
    await deleteMatching(this.es, this.index, { range: { receivedAt: { lt: before.toISOString() } } });
  }

  /** Removes every record of a source (the source or its project is being removed). */
  async forgetSource(sourceId: string): Promise<void> {
    await deleteMatching(this.es, this.index, { term: { sourceId } });
  }
}

function recordId(sourceId: string, eventId: string): string {
  return createHash('sha256').update(`${sourceId}\u0000${eventId}`).digest('hex').slice(0, 40);
}
