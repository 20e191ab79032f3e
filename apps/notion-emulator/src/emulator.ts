import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { NotionApiError, notFound, validationError } from './errors';
import { normalizeId, stableId } from './ids';
import { WorkspaceModel, type AddPageInput, type PageNode } from './model';
import { paginate, parsePageSize, queryDataSource, search } from './query';
import {
  propertyValueBody,
  renderBlock,
  renderBot,
  renderDatabase,
  renderDatabaseAsBlock,
  renderDataSource,
  renderPage,
  renderPageAsBlock,
  renderRichText,
  renderUser,
  samePropertyId,
  type RenderContext,
} from './render';
import type { BlockInput, PropertyValueInput, Workspace } from './workspace';

/** The only API version emulated: databases hold data sources. */
export const NOTION_VERSION = '2025-09-03';

export interface NotionEmulatorOptions {
  /** Average requests per second per integration token (default 3; Infinity disables the limit). */
  requestsPerSecond?: number;
  /** Requests a token may make at once before the average applies (default 10). */
  burst?: number;
  /** Clock for edit times, webhook timestamps and file URL expiry (default: the system clock). */
  now?: () => Date;
}

export interface NotionEmulatorStats {
  total: number;
  byRoute: Record<string, number>;
  rateLimited: number;
}

export interface WebhookEventInput {
  type: string;
  entityId: string;
  entityType?: 'page' | 'database' | 'data_source';
  data?: object;
}

export interface WebhookDeliveryOptions {
  /** Defaults to the token sent by the last sendVerificationRequest. */
  verificationToken?: string;
  signature?: 'valid' | 'invalid' | 'missing';
}

type Obj = Record<string, unknown>;
type Handler = (req: ApiRequest) => Obj;

interface ApiRequest {
  params: string[];
  query: URLSearchParams;
  body: Obj;
  ctx: RenderContext;
  baseUrl: string;
}

interface Route {
  method: 'GET' | 'POST';
  /** e.g. `/v1/blocks/:block_id/children`; `:x_id` segments are UUIDs. */
  template: string;
  pattern: RegExp;
  paramNames: string[];
  handler: Handler;
}

/**
 * An HTTP server that follows Notion's public REST API (version 2025-09-03) over an in-memory workspace,
 * for tests and demos: point `@notionhq/client` at it with `baseUrl`. It covers reading (users, search,
 * pages, blocks, databases, data sources and their queries), Notion's errors, pagination, rate limiting
 * and signed webhook deliveries; tests change the workspace through the mutation helpers.
 */
export class NotionEmulator {
  readonly model: WorkspaceModel;
  stats: NotionEmulatorStats = { total: 0, byRoute: {}, rateLimited: 0 };
  private server?: Server;
  private url?: string;
  private revoked = false;
  private readonly rps: number;
  private readonly burst: number;
  private readonly now: () => Date;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly routes: Route[];
  private faults: { remaining: number; status: 500 | 503 | 504 } = { remaining: 0, status: 500 };
  private verificationToken?: string;

  constructor(workspace: Workspace, options: NotionEmulatorOptions = {}) {
    this.model = new WorkspaceModel(workspace);
    this.rps = options.requestsPerSecond ?? 3;
    this.burst = options.burst ?? 10;
    this.now = options.now ?? (() => new Date());
    this.routes = this.buildRoutes();
  }

  /** The integration token clients must send. */
  get token(): string {
    return this.model.integration.token;
  }

  /** Starts listening; resolves to the base URL (`http://127.0.0.1:PORT`) to give the client as `baseUrl`. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, resolve);
    });
    const address = this.server.address() as AddressInfo;
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  resetStats(): void {
    this.stats = { total: 0, byRoute: {}, rateLimited: 0 };
  }

  // ---- mutation helpers --------------------------------------------------------------------------

  /** Replaces a block's text (a page's title for a page id); bumps the block and its page, not the parents. */
  editBlockText(blockId: string, newPlainText: string): void {
    this.model.editBlockText(blockId, newPlainText, this.clock());
  }

  /** Appends blocks to a page or block; returns the new top-level block ids. */
  appendBlocks(parentId: string, blocks: BlockInput[]): string[] {
    return this.model.appendBlocks(parentId, blocks, this.clock());
  }

  /** Creates a page (sub-page, workspace page or database row); returns its id. */
  addPage(input: AddPageInput): string {
    return this.model.addPage(input, this.clock());
  }

  trashPage(pageId: string): void {
    this.model.setTrashed(pageId, true, this.clock());
  }

  restorePage(pageId: string): void {
    this.model.setTrashed(pageId, false, this.clock());
  }

  /** The integration loses access: the page and everything below it answer 404 `object_not_found`. */
  unsharePage(pageId: string): void {
    this.model.unshare(pageId);
  }

  setRowProperty(pageId: string, propName: string, value: PropertyValueInput): void {
    this.model.setRowProperty(pageId, propName, value, this.clock());
  }

  /** Every later request answers 401 `unauthorized`. */
  revokeToken(): void {
    this.revoked = true;
  }

  /** The next `count` authorized requests fail with a 500 / 503 / 504 error, as Notion's servers sometimes do. */
  failNextRequests(count: number, status: 500 | 503 | 504 = 500): void {
    this.faults = { remaining: count, status };
  }

  // ---- webhooks ----------------------------------------------------------------------------------

  /**
   * The subscription handshake: POSTs `{ verification_token }` (unsigned) to the endpoint and remembers the
   * token, which signs later deliveries.
   */
  async sendVerificationRequest(
    url: string,
  ): Promise<{ status: number; body: string; verificationToken: string }> {
    const verificationToken = `secret_${randomBytes(32).toString('base64url').replace(/[-_]/g, '').slice(0, 43)}`;
    this.verificationToken = verificationToken;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verification_token: verificationToken }),
    });
    return { status: response.status, body: await response.text(), verificationToken };
  }

  /**
   * POSTs a Notion-shaped event, signed with `X-Notion-Signature: sha256=<HMAC-SHA256 of the raw body keyed
   * by the verification token>`. Returns the endpoint's answer and the exact body sent.
   */
  async deliverWebhook(
    url: string,
    event: WebhookEventInput,
    opts: WebhookDeliveryOptions = {},
  ): Promise<{ status: number; body: string; payload: string }> {
    const signature = opts.signature ?? 'valid';
    const token = opts.verificationToken ?? this.verificationToken;
    if (signature !== 'missing' && !token) {
      throw new Error(
        'deliverWebhook: no verification token; call sendVerificationRequest first or pass one',
      );
    }
    const payload = JSON.stringify(this.webhookPayload(event));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== 'missing') {
      const key = signature === 'valid' ? token! : `${token}-tampered`;
      headers['x-notion-signature'] = `sha256=${createHmac('sha256', key).update(payload).digest('hex')}`;
    }
    const response = await fetch(url, { method: 'POST', headers, body: payload });
    return { status: response.status, body: await response.text(), payload };
  }

  private webhookPayload(event: WebhookEventInput): Obj {
    const { model } = this;
    const entityId = normalizeId(event.entityId) ?? event.entityId;
    const entityType =
      event.entityType ??
      (model.databases.has(entityId) ? 'database' : model.dataSources.has(entityId) ? 'data_source' : 'page');
    return {
      id: randomUUID(),
      timestamp: this.now().toISOString(),
      workspace_id: model.workspace.id,
      workspace_name: model.workspace.name,
      subscription_id: stableId(`subscription/${model.integration.id}`),
      integration_id: normalizeId(model.integration.id),
      type: event.type,
      authors: [{ id: model.defaultEditor, type: 'person' }],
      attempt_number: 1,
      api_version: NOTION_VERSION,
      entity: { id: entityId, type: entityType },
      data: { ...this.webhookParent(entityId, entityType), ...event.data },
    };
  }

  private webhookParent(id: string, type: string): Obj {
    const { model } = this;
    const space = { parent: { id: model.workspace.id, type: 'space' } };
    if (type === 'data_source') {
      const ds = model.dataSources.get(id);
      return ds ? { parent: { id: ds.databaseId, type: 'database' } } : space;
    }
    const parent = (type === 'database' ? model.databases.get(id) : model.pages.get(id))?.parent;
    switch (parent?.type) {
      case 'page':
        return { parent: { id: parent.id, type: 'page' } };
      case 'block':
        return { parent: { id: parent.id, type: 'block' } };
      case 'data_source':
        return {
          parent: {
            id: model.dataSources.get(parent.id)!.databaseId,
            type: 'database',
            data_source_id: parent.id,
          },
        };
      default:
        return space;
    }
  }

  // ---- HTTP --------------------------------------------------------------------------------------

  private clock(): number {
    return this.now().getTime();
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    let status = 200;
    let body: unknown;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    try {
      body = await this.handle(req);
    } catch (error) {
      const apiError =
        error instanceof NotionApiError
          ? error
          : new NotionApiError(500, 'internal_server_error', 'Unexpected error occurred.');
      if (!(error instanceof NotionApiError)) console.error('notion-emulator: internal error', error);
      status = apiError.status;
      Object.assign(headers, apiError.headers);
      body = {
        object: 'error',
        status,
        code: apiError.code,
        message: apiError.message,
        request_id: requestId,
      };
    }
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage): Promise<Obj> {
    const url = new URL(req.url ?? '/', 'http://notion.emulator');
    const method = req.method ?? 'GET';
    const match = this.match(method, url.pathname);
    this.stats.total++;
    const routeKey = match ? `${method} ${match.route.template}` : `${method} (unknown)`;
    this.stats.byRoute[routeKey] = (this.stats.byRoute[routeKey] ?? 0) + 1;
    const raw = await readBody(req);

    const auth = req.headers.authorization ?? '';
    if (this.revoked || auth !== `Bearer ${this.token}`) {
      throw new NotionApiError(401, 'unauthorized', 'API token is invalid.');
    }
    const version = req.headers['notion-version'];
    if (version === undefined) {
      throw new NotionApiError(
        400,
        'missing_version',
        'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
      );
    }
    if (version !== NOTION_VERSION) {
      throw validationError(
        `Notion-Version header failed validation: the Notion emulator only implements \`"${NOTION_VERSION}"\`, ` +
          `instead was \`${JSON.stringify(version)}\`.`,
      );
    }
    this.takeToken(this.token);
    if (this.faults.remaining > 0) {
      this.faults.remaining--;
      throw serverFault(this.faults.status);
    }
    if (!match) throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.');

    let body: Obj = {};
    if (method === 'POST' && raw.trim() !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        throw new NotionApiError(400, 'invalid_json', 'Error parsing JSON body.');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw validationError('body failed validation: body should be an object.');
      }
    }
    const params = match.route.paramNames.map((name, i) => {
      const value = decodeURIComponent(match.values[i]);
      // Property ids are short opaque strings; every other path parameter is a UUID.
      if (name === 'property_id') return value;
      const id = normalizeId(value);
      if (!id) {
        throw validationError(
          `path failed validation: path.${name} should be a valid uuid, instead was \`${JSON.stringify(value)}\`.`,
        );
      }
      return id;
    });
    const host = req.headers.host ?? 'api.notion.com';
    return match.route.handler({
      params,
      query: url.searchParams,
      body,
      ctx: { model: this.model, now: this.clock() },
      baseUrl: `http://${host}`,
    });
  }

  /** Token bucket per integration token: `burst` at once, refilled at `requestsPerSecond`. */
  private takeToken(token: string): void {
    if (this.rps === Infinity) return;
    const now = performance.now();
    const bucket = this.buckets.get(token) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rps);
    bucket.at = now;
    this.buckets.set(token, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    this.stats.rateLimited++;
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.rps));
    throw new NotionApiError(
      429,
      'rate_limited',
      'You have been rate limited. Please try again in a few minutes.',
      {
        'retry-after': String(retryAfter),
      },
    );
  }

  private match(method: string, path: string): { route: Route; values: string[] } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (m) return { route, values: m.slice(1) };
    }
    return undefined;
  }

  private buildRoutes(): Route[] {
    const route = (method: Route['method'], template: string, handler: Handler): Route => {
      const paramNames: string[] = [];
      const source = template
        .split('/')
        .map((segment) => {
          if (!segment.startsWith(':')) return segment;
          paramNames.push(segment.slice(1));
          return '([^/]+)';
        })
        .join('/');
      return { method, template, pattern: new RegExp(`^${source}/?$`), paramNames, handler };
    };
    // `/v1/users/me` before `/v1/users/:user_id`.
    return [
      route('GET', '/v1/users/me', ({ ctx }) => renderBot(ctx)),
      route('GET', '/v1/users', (req) => this.listUsers(req)),
      route('GET', '/v1/users/:user_id', (req) => this.getUser(req)),
      route('POST', '/v1/search', (req) => this.search(req)),
      route('GET', '/v1/pages/:page_id', (req) => this.getPage(req)),
      route('GET', '/v1/pages/:page_id/properties/:property_id', (req) => this.getPageProperty(req)),
      route('GET', '/v1/blocks/:block_id', (req) => this.getBlock(req)),
      route('GET', '/v1/blocks/:block_id/children', (req) => this.listChildren(req)),
      route('GET', '/v1/databases/:database_id', (req) => this.getDatabase(req)),
      route('GET', '/v1/data_sources/:data_source_id', (req) => this.getDataSource(req)),
      route('POST', '/v1/data_sources/:data_source_id/query', (req) => this.queryDataSource(req)),
    ];
  }

  // ---- handlers ----------------------------------------------------------------------------------

  private requireUserInformation(): void {
    if (this.model.integration.userInformation === 'none') {
      throw new NotionApiError(403, 'restricted_resource', 'Insufficient permissions for this endpoint.');
    }
  }

  private listUsers({ ctx, query }: ApiRequest): Obj {
    this.requireUserInformation();
    const users = [...this.model.users.keys(), this.model.integration.botId].map((id) => ({ id }));
    const page = paginate(
      users,
      query.get('start_cursor') ?? undefined,
      parsePageSize(query.get('page_size') ?? undefined, 'query'),
    );
    return list(
      page.results.map(({ id }) => renderUser(ctx, id)),
      page,
      'user',
    );
  }

  private getUser({ ctx, params: [id] }: ApiRequest): Obj {
    this.requireUserInformation();
    if (!this.model.users.has(id) && id !== this.model.integration.botId) throw notFound('user', id);
    return renderUser(ctx, id);
  }

  private search({ ctx, body }: ApiRequest): Obj {
    const hits = search(ctx, body);
    const page = paginate(hits, body.start_cursor, parsePageSize(body.page_size, 'body'));
    const results = page.results.map((hit) =>
      hit.kind === 'page' ? renderPage(ctx, hit.page) : renderDataSource(ctx, hit.ds),
    );
    return list(results, page, 'page_or_data_source');
  }

  private visiblePage(id: string): PageNode {
    const page = this.model.pages.get(id);
    if (!page || !this.model.pageVisible(id)) throw notFound('page', id);
    return page;
  }

  private getPage({ ctx, params: [id], query }: ApiRequest): Obj {
    const filter = query.getAll('filter_properties');
    return renderPage(ctx, this.visiblePage(id), filter.length > 0 ? filter : undefined);
  }

  /** Paginated for title, rich_text, people and relation (as Notion does); a single item otherwise. */
  private getPageProperty({ ctx, params: [id, propertyId], query, baseUrl }: ApiRequest): Obj {
    const page = this.visiblePage(id);
    const ds = page.parent.type === 'data_source' ? this.model.dataSources.get(page.parent.id)! : undefined;
    const itemList = (type: string, values: Obj[], propId: string) =>
      propertyItemList({ pageId: id, propertyId: propId, type, values, query, baseUrl });
    if (!ds) {
      if (!samePropertyId(propertyId, 'title')) throw notFound('page', id);
      return itemList('title', renderRichText(ctx, page.title), 'title');
    }
    const prop = ds.properties.find((p) => samePropertyId(propertyId, p.id));
    if (!prop) throw notFound('page', id);
    const value = propertyValueBody(ctx, page, prop)[prop.type];
    if (prop.type === 'relation') {
      // The page object shows 25 relations; this endpoint pages through all of them.
      const ids = (page.properties[prop.name] as string[] | undefined) ?? [];
      return itemList(
        'relation',
        ids.map((rel) => ({ id: normalizeId(rel) })),
        prop.id,
      );
    }
    if (prop.type === 'title' || prop.type === 'rich_text' || prop.type === 'people') {
      return itemList(prop.type, value as Obj[], prop.id);
    }
    return { object: 'property_item', id: prop.id, type: prop.type, [prop.type]: value };
  }

  private getBlock({ ctx, params: [id] }: ApiRequest): Obj {
    const { model } = this;
    if (!model.blockVisible(id)) throw notFound('block', id);
    const page = model.pages.get(id);
    if (page) return renderPageAsBlock(ctx, page);
    const database = model.databases.get(id);
    if (database) return renderDatabaseAsBlock(ctx, database);
    return renderBlock(ctx, model.blocks.get(id)!);
  }

  private listChildren({ ctx, params: [id], query }: ApiRequest): Obj {
    const { model } = this;
    if (!model.blockVisible(id)) throw notFound('block', id);
    const children = model.databases.has(id) ? [] : model.childrenOf(id);
    const size = parsePageSize(query.get('page_size') ?? undefined, 'query');
    const page = paginate(children, query.get('start_cursor') ?? undefined, size);
    return list(
      page.results.map((block) => renderBlock(ctx, block)),
      page,
      'block',
    );
  }

  private getDatabase({ ctx, params: [id] }: ApiRequest): Obj {
    const database = this.model.databases.get(id);
    if (!database || !this.model.databaseVisible(id)) throw notFound('database', id);
    return renderDatabase(ctx, database);
  }

  private visibleDataSource(id: string) {
    const ds = this.model.dataSources.get(id);
    if (!ds || !this.model.databaseVisible(ds.databaseId)) throw notFound('data_source', id);
    return ds;
  }

  private getDataSource({ ctx, params: [id] }: ApiRequest): Obj {
    return renderDataSource(ctx, this.visibleDataSource(id));
  }

  private queryDataSource({ ctx, params: [id], body, query }: ApiRequest): Obj {
    const ds = this.visibleDataSource(id);
    const rows = queryDataSource(ctx, ds, body);
    const page = paginate(rows, body.start_cursor, parsePageSize(body.page_size, 'body'));
    const filter = query.getAll('filter_properties');
    return list(
      page.results.map((row) => renderPage(ctx, row, filter.length > 0 ? filter : undefined)),
      page,
      'page_or_data_source',
    );
  }
}

function list(
  results: unknown[],
  page: { next_cursor: string | null; has_more: boolean },
  type: string,
): Obj {
  return {
    object: 'list',
    results,
    next_cursor: page.next_cursor,
    has_more: page.has_more,
    type,
    [type]: {},
  };
}

/** A list of property items, one per rich text item, user or related page (`GET /v1/pages/:id/properties/:id`). */
function propertyItemList(args: {
  pageId: string;
  propertyId: string;
  type: string;
  values: Obj[];
  query: URLSearchParams;
  baseUrl: string;
}): Obj {
  const { pageId, propertyId, type, values, query, baseUrl } = args;
  const size = parsePageSize(query.get('page_size') ?? undefined, 'query');
  const start = query.get('start_cursor');
  const offset = start === null ? 0 : Number(start);
  if (!Number.isInteger(offset) || offset < 0 || offset > values.length) {
    throw validationError(`The start_cursor provided is invalid: ${start}`);
  }
  const results = values
    .slice(offset, offset + size)
    .map((value) => ({ object: 'property_item', id: propertyId, type, [type]: value }));
  const nextCursor = offset + size < values.length ? String(offset + size) : null;
  return {
    object: 'list',
    results,
    next_cursor: nextCursor,
    has_more: nextCursor !== null,
    type: 'property_item',
    property_item: {
      id: propertyId,
      next_url: nextCursor
        ? `${baseUrl}/v1/pages/${pageId}/properties/${encodeURIComponent(propertyId)}?start_cursor=${nextCursor}`
        : null,
      type,
      [type]: {},
    },
  };
}

function serverFault(status: 500 | 503 | 504): NotionApiError {
  if (status === 503) {
    return new NotionApiError(503, 'service_unavailable', 'Notion is unavailable. Please try again later.');
  }
  if (status === 504) {
    return new NotionApiError(504, 'gateway_timeout', 'Notion timed out while processing your request.');
  }
  return new NotionApiError(500, 'internal_server_error', 'Unexpected error occurred.');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
