import type { SourceEvent } from '@trove/domain';
import { blobKeys, DocumentStatus } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import {
  FAKE_PLACEHOLDER_MEDIA_TYPE,
  FakeConnector,
  InMemoryBlobStore,
  InMemoryCatalog,
  RecordingChunkIndex,
  runActivity,
} from './fakes.testing';
import { SourceConnectors } from './source-connectors';
import { createWebhookActivities } from './webhook.activities';

function setup() {
  const catalog = new InMemoryCatalog();
  const blobs = new InMemoryBlobStore();
  const chunkIndex = new RecordingChunkIndex();
  const connector = new FakeConnector();
  const source = catalog.newSource();
  const activities = createWebhookActivities({
    ...catalog.ports(),
    blobs,
    chunkIndex: chunkIndex,
    connectors: new SourceConnectors([connector], { complete: false }),
  });
  return { catalog, blobs, chunkIndex, connector, source, activities };
}

function event(entityId: string, parentId?: string): SourceEvent {
  return {
    type: 'page.content_updated',
    entityId,
    entityType: 'page',
    timestamp: '2026-05-01T10:00:00.000Z',
    ...(parentId ? { parentId } : {}),
  };
}

describe('applySourceEvents', () => {
  it("turns the connector's work into documents: known ids map to theirs, new ones get records, gone ones are removed", async () => {
    const ctx = setup();
    const edited = ctx.catalog.newItem(ctx.source, 'edited', { version: 'v1' });
    const trashed = ctx.catalog.newItem(ctx.source, 'trashed', { version: 'v1' });
    const parent = ctx.catalog.newItem(ctx.source, 'parent', { version: 'v1' });
    const unrelated = ctx.catalog.newItem(ctx.source, 'unrelated', { version: 'v1' });
    await ctx.blobs.put(blobKeys.original(trashed.id, 'b'.repeat(64)), 'original');
    ctx.connector.reducingTo({ ingest: ['edited', 'created'], gone: ['trashed'], ignored: 2, resync: true });

    const result = await runActivity(ctx.activities.applySourceEvents, {
      sourceId: ctx.source.id,
      events: [event('edited'), event('created', 'parent'), event('trashed'), event('edited')],
    });

    const created = ctx.catalog.itemsOf(ctx.source.id).find((d) => d.externalId === 'created');
    expect(created).toMatchObject({
      status: DocumentStatus.PENDING,
      fileName: 'fake:created',
      mediaType: FAKE_PLACEHOLDER_MEDIA_TYPE,
    });
    expect(result).toEqual({ ingest: [edited.id, created!.id], removed: 1, ignored: 2, resync: true });
    expect(ctx.catalog.documents.has(trashed.id)).toBe(false);
    expect(ctx.chunkIndex.deleted()).toEqual([trashed.id]);
    expect(ctx.blobs.keys(blobKeys.originals(trashed.id))).toEqual([]);
    expect(ctx.catalog.documents.has(unrelated.id)).toBe(true);
    // Only the items the events name (and their parents) are looked up and handed over as known.
    expect(ctx.connector.reduceCalls).toHaveLength(1);
    expect(ctx.connector.reduceCalls[0].known).toEqual(['edited', 'parent', 'trashed']);
    expect(parent.id).toBeDefined();
  });

  it('applied twice, creates no second record for a new item', async () => {
    const ctx = setup();
    ctx.connector.reducingTo({ ingest: ['created'] });
    const input = { sourceId: ctx.source.id, events: [event('created')] };
    const first = await runActivity(ctx.activities.applySourceEvents, input);
    const second = await runActivity(ctx.activities.applySourceEvents, input);
    expect(second.ingest).toEqual(first.ingest);
    expect(ctx.catalog.itemsOf(ctx.source.id)).toHaveLength(1);
  });

  it('a connector without event reduction ignores every event, changing nothing', async () => {
    const ctx = setup();
    const known = ctx.catalog.newItem(ctx.source, 'known');
    const result = await runActivity(ctx.activities.applySourceEvents, {
      sourceId: ctx.source.id,
      events: [event('known'), event('new')],
    });
    expect(result).toEqual({ ingest: [], removed: 0, ignored: 2, resync: false });
    expect(ctx.catalog.itemsOf(ctx.source.id)).toEqual([known]);
    expect(ctx.chunkIndex.deleted()).toEqual([]);
  });
});
