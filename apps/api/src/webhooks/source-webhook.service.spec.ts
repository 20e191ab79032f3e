import { createHmac, randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiConfig, SecretBox, webhooksSchema } from '@trove/config';
import {
  type Source,
  SourceStatus,
  TroveErrorCode,
  type TroveSignals,
  type TroveWorkflows,
} from '@trove/domain';
import { NOTION_SOURCE_TYPE, type NotionSource } from '@trove/connector-notion';
import { WEB_SOURCE_TYPE, type WebSource } from '@trove/connector-web';
import type { SignalWithStartOptions } from '../core/workflows';
import { SourceWebhookService, type WebhookWorkflows } from './source-webhook.service';
import { createSourceDefinitions } from '@trove/source-definitions';
import { WebhookRefusals } from './webhook-refusals';

const KEY = Buffer.alloc(32, 3).toString('base64');
const TOKEN = 'secret_verification_token_for_tests';
const box = new SecretBox(KEY);

function source(changes: Partial<NotionSource> = {}): NotionSource {
  const now = new Date().toISOString();
  return {
    id: 'src-1',
    projectId: 'p-1',
    type: NOTION_SOURCE_TYPE,
    name: 'wiki',
    status: SourceStatus.ACTIVE,
    config: {
      token: { sealed: box.encrypt(`ntn_${'t'.repeat(46)}`), hint: 'ntn_…' },
      everything: true,
      rootPageIds: [],
      rootDatabaseIds: [],
    },
    webhookToken: box.encrypt(TOKEN),
    createdAt: now,
    updatedAt: now,
    ...changes,
  };
}

/** Temporal as the webhook service sees it: records what it is asked (each test also spies on it). */
class RecordingWorkflows implements WebhookWorkflows {
  readonly cancelled: string[] = [];

  signalWithStart<K extends keyof TroveWorkflows, S extends keyof TroveSignals>(
    _name: K,
    _signal: S,
    _options: SignalWithStartOptions<K, S>,
  ): Promise<void> {
    return Promise.resolve();
  }

  async cancel(workflowId: string): Promise<void> {
    this.cancelled.push(workflowId);
  }
}

function setup(current: Source) {
  const seen = new Set<string>();
  const catalog = {
    getSource: vi.fn(async (): Promise<Source | undefined> => current),
    // The source and its project accept writes (not being removed or deleted).
    requireActiveSource: vi.fn(async () => current),
    updateSource: vi.fn(async () => undefined),
    webhookEvents: {
      record: vi.fn(async (s: string, e: string) => !seen.has(`${s}/${e}`) && !!seen.add(`${s}/${e}`)),
      forget: vi.fn(async (s: string, e: string) => void seen.delete(`${s}/${e}`)),
      purge: vi.fn(async () => undefined),
    },
    webhookDeliveries: {
      accepted: vi.fn(async (..._args: unknown[]) => undefined),
      rejected: vi.fn(async (..._args: unknown[]) => undefined),
    },
  };
  const workflows = new RecordingWorkflows();
  const signalWithStart = vi.spyOn(workflows, 'signalWithStart');
  const config = {
    secrets: { key: KEY },
    temporal: { taskQueue: 'q' },
    webhooks: webhooksSchema.parse({}),
  } as unknown as ApiConfig;
  const service = new SourceWebhookService(
    catalog,
    catalog,
    catalog.webhookEvents,
    catalog.webhookDeliveries,
    workflows,
    config,
    new WebhookRefusals(catalog.webhookDeliveries, config),
    createSourceDefinitions({ folders: { roots: [], cacheDir: '/nonexistent' } }, {}),
    box,
  );
  return { service, catalog, signalWithStart };
}

/** A delivery as the controller hands it over, with Notion's signature header when given. */
function deliver(service: SourceWebhookService, sourceId: string, body: Buffer, signature?: string) {
  return service.receive(sourceId, {
    body,
    header: (name) => (name === 'x-notion-signature' ? signature : undefined),
  });
}

function signed(event: object): { body: Buffer; signature: string } {
  const body = Buffer.from(JSON.stringify(event));
  return { body, signature: `sha256=${createHmac('sha256', TOKEN).update(body).digest('hex')}` };
}

function pageEvent(changes: object = {}) {
  return {
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    type: 'page.deleted',
    entity: { id: 'page-1', type: 'page' },
    ...changes,
  };
}

describe('SourceWebhookService (a Notion source)', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup(source());
  });

  it('refuses a signed event older than the window or too far in the future, without signalling', async () => {
    for (const offset of [-6 * 60_000, 2 * 60_000]) {
      const { body, signature } = signed(
        pageEvent({ timestamp: new Date(Date.now() + offset).toISOString() }),
      );
      await expect(deliver(ctx.service, 'src-1', body, signature)).rejects.toMatchObject({
        code: TroveErrorCode.WebhookExpired,
      });
    }
    const { body, signature } = signed(pageEvent({ timestamp: undefined }));
    await expect(deliver(ctx.service, 'src-1', body, signature)).rejects.toMatchObject({
      code: TroveErrorCode.WebhookExpired,
    });
    expect(ctx.signalWithStart).not.toHaveBeenCalled();
  });

  it("answers a delivery through another type's address as one to an unknown source, its own type's as usual", async () => {
    const { body, signature } = signed(pageEvent());
    const header = (name: string) => (name === 'x-notion-signature' ? signature : undefined);
    await expect(ctx.service.receive('src-1', { body, header }, undefined, 'git')).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
    expect(ctx.signalWithStart).not.toHaveBeenCalled();
    expect(await ctx.service.receive('src-1', { body, header }, undefined, 'notion')).toBe('accepted');
  });

  it("signals the source's webhook workflow, starting it with the configured timing and its project as fairness key", async () => {
    const { body, signature } = signed(pageEvent());
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('accepted');
    const { quietMs, maxDelayMs, historyLimit } = webhooksSchema.parse({});
    expect(ctx.signalWithStart).toHaveBeenCalledWith('sourceEvents', 'sourceEvents', {
      taskQueue: 'q',
      workflowId: 'notion-webhook-src-1',
      args: ['src-1', [], { quietMs, maxDelayMs, historyLimit }],
      signalArgs: [[expect.objectContaining({ type: 'page.deleted', entityId: 'page-1' })]],
      priority: { fairnessKey: 'p-1' },
    });
  });

  it('acknowledges a repeated event id without signalling it again', async () => {
    const { body, signature } = signed(pageEvent());
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('accepted');
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('duplicate');
    expect(ctx.signalWithStart).toHaveBeenCalledTimes(1);
  });

  it("forgets the event id when the signal fails, so Notion's retry is applied", async () => {
    ctx.signalWithStart.mockRejectedValueOnce(new Error('temporal down'));
    const { body, signature } = signed(pageEvent());
    await expect(deliver(ctx.service, 'src-1', body, signature)).rejects.toThrow('temporal down');
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('accepted');
  });

  it('records the time and type of each signed, fresh delivery — never its payload', async () => {
    const { body, signature } = signed(pageEvent({ type: 'page.content_updated' }));
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('accepted');
    // A repeat is a delivery received too (Notion retrying), though not applied twice.
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('duplicate');
    expect(ctx.catalog.webhookDeliveries.accepted.mock.calls).toEqual([
      ['src-1', 'page.content_updated'],
      ['src-1', 'page.content_updated'],
    ]);
    expect(ctx.catalog.webhookDeliveries.rejected).not.toHaveBeenCalled();
  });

  it('counts every refused delivery: bad or missing signature, stale, malformed, unknown source', async () => {
    const { body, signature } = signed(pageEvent());
    const forged = `sha256=${createHmac('sha256', 'not-the-token').update(body).digest('hex')}`;
    await expect(deliver(ctx.service, 'src-1', body, forged)).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
    await expect(deliver(ctx.service, 'src-1', body, undefined)).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
    const stale = signed(pageEvent({ timestamp: new Date(Date.now() - 3600_000).toISOString() }));
    await expect(deliver(ctx.service, 'src-1', stale.body, stale.signature)).rejects.toMatchObject({
      code: TroveErrorCode.WebhookExpired,
    });
    await expect(deliver(ctx.service, 'src-1', Buffer.from('{not json'), signature)).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
    });
    ctx.catalog.getSource.mockResolvedValueOnce(undefined);
    await expect(deliver(ctx.service, 'src-2', body, signature)).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
    expect(ctx.catalog.webhookDeliveries.rejected.mock.calls).toEqual([
      ['src-1'],
      ['src-1'],
      ['src-1'],
      ['src-1'],
      ['src-2'],
    ]);
    expect(ctx.catalog.webhookDeliveries.accepted).not.toHaveBeenCalled();
  });

  it('neither counts our own failures nor fails a delivery when counting fails', async () => {
    ctx.signalWithStart.mockRejectedValueOnce(new Error('temporal down'));
    const { body, signature } = signed(pageEvent());
    await expect(deliver(ctx.service, 'src-1', body, signature)).rejects.toThrow('temporal down');
    expect(ctx.catalog.webhookDeliveries.rejected).not.toHaveBeenCalled();
    ctx.catalog.webhookDeliveries.accepted.mockRejectedValueOnce(new Error('database down'));
    expect(await deliver(ctx.service, 'src-1', body, signature)).toBe('accepted');
    ctx.catalog.webhookDeliveries.rejected.mockRejectedValueOnce(new Error('database down'));
    await expect(deliver(ctx.service, 'src-1', body, 'sha256=00')).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
  });

  it('accepts the verification request only within the window after creation or reset', async () => {
    const verification = Buffer.from(JSON.stringify({ verification_token: 'secret_new' }));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    const stale = setup(source({ webhookToken: undefined, createdAt: twoHoursAgo }));
    await expect(deliver(stale.service, 'src-1', verification, undefined)).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
    });
    expect(stale.catalog.updateSource).not.toHaveBeenCalled();

    const reset = setup(
      source({
        webhookToken: undefined,
        createdAt: twoHoursAgo,
        webhookVerificationOpenedAt: new Date().toISOString(),
      }),
    );
    expect(await deliver(reset.service, 'src-1', verification, undefined)).toBe('verification token stored');
    expect(reset.catalog.updateSource).toHaveBeenCalledTimes(1);
  });

  it('refuses deliveries to a source whose type has no webhook, as to an unknown source', async () => {
    const notion = source();
    const web: WebSource = {
      id: notion.id,
      projectId: notion.projectId,
      name: 'site',
      status: SourceStatus.ACTIVE,
      webhookToken: notion.webhookToken,
      type: WEB_SOURCE_TYPE,
      config: { url: 'https://docs.example.test/', maxPages: 10 },
      createdAt: notion.createdAt,
      updatedAt: notion.updatedAt,
    };
    const other = setup(web);
    const { body, signature } = signed(pageEvent());
    await expect(deliver(other.service, 'src-1', body, signature)).rejects.toMatchObject({
      code: TroveErrorCode.Unauthenticated,
      message: 'webhook delivery not accepted',
    });
    expect(other.signalWithStart).not.toHaveBeenCalled();
  });
});
