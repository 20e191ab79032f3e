import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator, NOTION_VERSION } from './emulator';
import { UUID_RE } from './spec-client';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

describe('Notion emulator: webhooks', () => {
  let emulator: NotionEmulator;
  let receiver: Server;
  let url: string;
  const received: Received[] = [];

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), {
      requestsPerSecond: Infinity,
      now: () => new Date('2026-11-10T12:34:56.789Z'),
    });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/notion`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('sends an unsigned verification request carrying the token', async () => {
    const { status, body, verificationToken } = await emulator.sendVerificationRequest(url);
    expect(status).toBe(200);
    expect(body).toBe('ok');
    expect(verificationToken).toMatch(/^secret_[A-Za-z0-9]+$/);
    const request = received.at(-1)!;
    expect(JSON.parse(request.raw)).toEqual({ verification_token: verificationToken });
    expect(request.headers['x-notion-signature']).toBeUndefined();
  });

  it('signs deliveries with HMAC-SHA256 of the raw body, keyed by the verification token', async () => {
    const { verificationToken } = await emulator.sendVerificationRequest(url);
    const result = await emulator.deliverWebhook(url, {
      type: 'page.content_updated',
      entityId: DEFAULT_IDS.onCallBasics,
      data: { updated_blocks: [{ id: DEFAULT_IDS.syncedOriginal, type: 'block' }] },
    });
    expect(result.status).toBe(200);
    const request = received.at(-1)!;
    expect(request.raw).toBe(result.payload);
    const expected = createHmac('sha256', verificationToken).update(request.raw).digest('hex');
    expect(request.headers['x-notion-signature']).toBe(`sha256=${expected}`);

    const event = JSON.parse(request.raw);
    expect(Object.keys(event)).toEqual([
      'id',
      'timestamp',
      'workspace_id',
      'workspace_name',
      'subscription_id',
      'integration_id',
      'type',
      'authors',
      'attempt_number',
      'api_version',
      'entity',
      'data',
    ]);
    expect(event).toMatchObject({
      timestamp: '2026-11-10T12:34:56.789Z',
      workspace_name: 'Trove Demo',
      type: 'page.content_updated',
      attempt_number: 1,
      api_version: NOTION_VERSION,
      entity: { id: DEFAULT_IDS.onCallBasics, type: 'page' },
      data: {
        parent: { id: DEFAULT_IDS.onboarding, type: 'page' },
        updated_blocks: [{ id: DEFAULT_IDS.syncedOriginal, type: 'block' }],
      },
    });
    expect(event.id).toMatch(UUID_RE);
    expect(event.authors[0]).toMatchObject({ type: 'person' });
  });

  it('describes database rows with a database parent and its data source', async () => {
    await emulator.deliverWebhook(url, { type: 'page.properties_updated', entityId: DEFAULT_IDS.adr007Row });
    const event = JSON.parse(received.at(-1)!.raw);
    expect(event.data.parent).toEqual({
      id: DEFAULT_IDS.adrDatabase,
      type: 'database',
      data_source_id: DEFAULT_IDS.adrDataSource,
    });
    await emulator.deliverWebhook(url, {
      type: 'data_source.schema_updated',
      entityId: DEFAULT_IDS.adrDataSource,
    });
    expect(JSON.parse(received.at(-1)!.raw).entity).toEqual({
      id: DEFAULT_IDS.adrDataSource,
      type: 'data_source',
    });
  });

  it('can send a wrong signature or none, for negative tests', async () => {
    const token = 'secret_fixed_for_this_test';
    await emulator.deliverWebhook(
      url,
      { type: 'page.created', entityId: DEFAULT_IDS.hub },
      { verificationToken: token, signature: 'invalid' },
    );
    const invalid = received.at(-1)!;
    const expected = createHmac('sha256', token).update(invalid.raw).digest('hex');
    expect(invalid.headers['x-notion-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(invalid.headers['x-notion-signature']).not.toBe(`sha256=${expected}`);

    await emulator.deliverWebhook(
      url,
      { type: 'page.created', entityId: DEFAULT_IDS.hub },
      { signature: 'missing' },
    );
    expect(received.at(-1)!.headers['x-notion-signature']).toBeUndefined();
    expect(JSON.parse(received.at(-1)!.raw).data.parent.type).toBe('space');
  });
});
