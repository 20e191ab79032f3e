/**
 * What the API knows of a source type: its name, the configuration a client gives (a zod schema,
 * which fields are secrets), the checks that need the server, and how its webhook deliveries are
 * verified. Each connector lib exports its definition; `SourceDefinitions` holds them all, so no
 * API service, catalog repository or client switches on the type. The worker's side of a type is
 * its `SourceConnector` (discovery, fetching, event reduction, citations).
 */
import { z } from 'zod/v4';
import { TroveError, TroveErrorCode } from './errors';
import type { SealedSecret, Source, SourceBase, SourceType } from './model';
import type { SourceEvent } from './source-connector';

/** A client's configuration of a source, or the stored one: a JSON object. */
export type SourceConfig = Record<string, unknown>;

export interface SourceDefinition {
  readonly type: SourceType;
  /** A short name for forms and listings, e.g. "Notion workspace". */
  readonly label: string;
  readonly description: string;
  /**
   * The configuration a client gives, secrets as plain strings. A strict object: an unknown
   * field is an error, not silently dropped.
   */
  readonly configSchema: z.ZodObject;
  /** Top-level fields of the schema that are secrets: sealed when stored, shown as hints only. */
  readonly secretFields: readonly string[];
  /**
   * Stored fields the server alone writes (an uploaded archive's blob key): never shown to
   * clients, kept as they are when a client updates the configuration.
   */
  readonly serverFields?: readonly string[];
  /**
   * The configuration to store from a validated one: normalisation and checks that need the
   * server (allowed roots, DNS). Secrets are still plain here. `previous` is the stored
   * configuration when a source is updated. Throws `SourceConfigError` naming the field.
   */
  prepare?(config: SourceConfig, previous?: SourceConfig): Promise<SourceConfig>;
  /**
   * What a source card shows of a configuration as clients see it (secrets and server fields
   * removed), e.g. "https://docs.example.com/ · at most 200 pages". Unset: the first text field.
   */
  summarize?(config: SourceConfig): string;
  /** Types that receive pushed changes: how a delivery to `/webhooks/<source id>` is verified. */
  readonly webhook?: SourceWebhook;
  /** Types whose content may be an uploaded `.zip` (`POST /v1/projects/<id>/archives`). */
  readonly archive?: SourceArchive;
}

/** An uploaded archive, stored where the source's configuration points. */
export interface StoredArchive {
  blobKey: string;
  sha256: string;
  fileName: string;
}

export interface SourceArchive {
  /**
   * The configuration of a source made from an uploaded archive, or of `previous` (a stored
   * archive source's) with its archive replaced. `options`: the upload's other form fields.
   * Throws BAD_REQUEST naming the field at fault.
   */
  configure(
    archive: StoredArchive,
    options: Readonly<Record<string, string | undefined>>,
    previous?: SourceConfig,
  ): SourceConfig;
  /** Whether a stored configuration is an archive's, whose archive an upload may replace. */
  isArchive(stored: SourceConfig): boolean;
}

/** The path every webhook delivery is sent to; `{sourceId}` stands for the source's id. */
export const WEBHOOK_PATH = '/webhooks/{sourceId}';

/** What an operator sets up so that a source's webhook deliveries arrive, shown as it is by clients. */
export interface WebhookSetup {
  /** One sentence: what to set up where, e.g. "Create a Notion webhook subscription …". */
  instructions: string;
  /** The steps, in order, as plain sentences. */
  steps: string[];
  /**
   * The type's first delivery is an unsigned handshake whose token the operator pastes back into
   * the sender (shown by `webhookVerificationToken`; a reset accepts a new one).
   */
  verificationHandshake: boolean;
}

/** A webhook delivery as the API received it. */
export interface WebhookDelivery {
  body: Buffer;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
}

export interface WebhookContext {
  source: Source;
  /** The secret the webhook was verified with, decrypted; unset until the handshake. */
  secret?: string;
  /** The source accepts an unsigned verification handshake now (its window is open). */
  handshakeOpen: boolean;
  /** Replay window of signed events: how old, and how far ahead, an event's timestamp may be. */
  maxAgeMs: number;
  maxFutureMs: number;
}

/** What a verified delivery is. */
export type WebhookOutcome =
  /** A verification handshake: store `secret` (sealed) to verify later deliveries with. */
  | { kind: 'handshake'; secret: string }
  /** A signed, fresh event; `event` unset: nothing a sync needs (it is only counted). */
  | { kind: 'event'; eventType: string; eventId?: string; event?: SourceEvent };

export interface SourceWebhook {
  /** What an operator must set up for deliveries to arrive. */
  readonly setup: WebhookSetup;
  /**
   * Verifies a delivery (signature, freshness, handshake rules) and reads it. Refusals throw
   * `WebhookRefused` (UNAUTHENTICATED, WEBHOOK_EXPIRED) or BAD_REQUEST for a malformed body.
   */
  receive(delivery: WebhookDelivery, context: WebhookContext): Promise<WebhookOutcome>;
}

/** A refused webhook delivery; `reason` (logged, sampled) says why in more words than the client gets. */
export class WebhookRefused extends TroveError {
  constructor(
    code: TroveErrorCode,
    message: string,
    readonly reason: string,
  ) {
    super(code, message);
    this.name = 'WebhookRefused';
  }
}

/** The answer to a delivery that is not accepted, whatever the cause: no state is revealed. */
export function webhookUnauthorized(
  reason = 'an unknown source, or one not verified or not accepting writes',
): WebhookRefused {
  return new WebhookRefused(TroveErrorCode.Unauthenticated, 'webhook delivery not accepted', reason);
}

/** A problem with one field of a source's configuration. */
export interface ConfigProblem {
  /** The field's path, e.g. `config.maxPages` (`config` for the object itself). */
  field: string;
  message: string;
}

/** BAD_REQUEST: the configuration is invalid; the message names every field at fault. */
export class SourceConfigError extends TroveError {
  constructor(
    readonly sourceType: string,
    readonly problems: ConfigProblem[],
  ) {
    super(
      TroveErrorCode.BadRequest,
      `invalid ${sourceType} source configuration: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      { permanent: true },
    );
    this.name = 'SourceConfigError';
  }
}

/** A `SourceConfigError` for one field (checks done in `prepare`). */
export function configProblem(sourceType: string, field: string, message: string): SourceConfigError {
  return new SourceConfigError(sourceType, [{ field: `config.${field}`, message }]);
}

/** Seals a secret's plain value (the API's `SecretBox` and `maskSecret`). */
export type SecretSealer = (plain: string) => SealedSecret;

/** How a source type is described to clients, to build forms from. */
export interface SourceTypeDescription {
  type: SourceType;
  label: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the configuration a client gives; secrets are `writeOnly`. */
  configSchema: Record<string, unknown>;
  secretFields: string[];
  /** The type receives webhook deliveries at `/webhooks/<source id>`. */
  webhook: boolean;
  /** What an operator sets up for those deliveries, with the path they go to; null: no webhooks. */
  webhookSetup: (WebhookSetup & { path: string }) | null;
}

/**
 * Every source type's definition. Refuses to be built incomplete (a type without a definition)
 * or ambiguous (two for one type), so the API fails at start-up rather than at the first request.
 */
export class SourceDefinitions {
  private readonly byType = new Map<string, SourceDefinition>();

  constructor(definitions: readonly SourceDefinition[], types: readonly SourceType[]) {
    for (const definition of definitions) {
      if (this.byType.has(definition.type)) {
        throw new Error(`two source definitions for type ${definition.type}`);
      }
      for (const field of definition.secretFields) {
        if (!(field in definition.configSchema.shape)) {
          throw new Error(`source type ${definition.type}: secret field "${field}" is not in its schema`);
        }
      }
      this.byType.set(definition.type, definition);
    }
    const archives = definitions.filter((definition) => definition.archive).map((d) => d.type);
    if (archives.length > 1)
      throw new Error(`two source types take uploaded archives: ${archives.join(', ')}`);
    const missing = types.filter((type) => !this.byType.has(type));
    if (missing.length > 0) throw new Error(`no source definition for type ${missing.join(', ')}`);
  }

  /** The definition of a type; an unknown type is BAD_REQUEST naming the known ones. */
  get(type: string): SourceDefinition {
    const definition = this.byType.get(type);
    if (!definition) {
      throw new SourceConfigError(String(type).slice(0, 40), [
        { field: 'type', message: `unknown source type; one of ${[...this.byType.keys()].join(', ')}` },
      ]);
    }
    return definition;
  }

  list(): SourceDefinition[] {
    return [...this.byType.values()];
  }

  /** The type uploaded archives become: the one whose definition takes archives. */
  archiveType(): SourceDefinition & { archive: SourceArchive } {
    const types = this.list().filter(
      (definition): definition is SourceDefinition & { archive: SourceArchive } => !!definition.archive,
    );
    if (types.length !== 1) {
      throw new TroveError(TroveErrorCode.BadRequest, 'no source type takes uploaded archives');
    }
    return types[0];
  }

  describe(): SourceTypeDescription[] {
    return this.list().map((definition) => ({
      type: definition.type,
      label: definition.label,
      description: definition.description,
      configSchema: configJsonSchema(definition),
      secretFields: [...definition.secretFields],
      webhook: definition.webhook !== undefined,
      webhookSetup: definition.webhook ? { ...definition.webhook.setup, path: WEBHOOK_PATH } : null,
    }));
  }

  /** One line a source card shows of a stored configuration (no secrets, no server fields). */
  summary(type: string, stored: object): string {
    const definition = this.get(type);
    const config = clientView(definition, stored as SourceConfig, false);
    if (definition.summarize) return definition.summarize(config);
    const text = Object.values(config).find((value) => typeof value === 'string' && value !== '');
    return typeof text === 'string' ? text : '';
  }

  /**
   * A client's configuration validated and prepared for storing, its secrets sealed. When
   * `previous` (the stored configuration) is given, `input` changes it: fields it leaves out
   * keep their value (`null` clears an optional one), secrets left out stay as sealed, and
   * stored fields outside the schema are kept unless `prepare` sets them.
   */
  async configure(
    type: string,
    input: unknown,
    seal: SecretSealer,
    previousConfig?: object,
  ): Promise<SourceConfig> {
    const definition = this.get(type);
    const previous = previousConfig as SourceConfig | undefined;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new SourceConfigError(type, [{ field: 'config', message: 'must be a JSON object' }]);
    }
    const given = input as SourceConfig;
    const kept = previous ? definition.secretFields.filter((field) => given[field] === undefined) : [];
    let candidate: SourceConfig = given;
    if (previous) {
      candidate = { ...clientView(definition, previous), ...given };
      for (const [key, value] of Object.entries(candidate)) if (value === null) delete candidate[key];
    }
    const schema =
      kept.length > 0
        ? definition.configSchema.omit(Object.fromEntries(kept.map((field) => [field, true])))
        : definition.configSchema;
    const parsed = schema.safeParse(candidate);
    if (!parsed.success) throw new SourceConfigError(type, problemsOf(parsed.error));
    let config = parsed.data as SourceConfig;
    if (definition.prepare) config = await definition.prepare(config, previous);
    // Stored fields a client cannot give (an archive's blob key, a derived flag) stay as they were.
    const stored: SourceConfig = {};
    for (const [key, value] of Object.entries(previous ?? {})) {
      if (!(key in definition.configSchema.shape)) stored[key] = value;
    }
    for (const [key, value] of Object.entries(config)) {
      stored[key] = definition.secretFields.includes(key) && typeof value === 'string' ? seal(value) : value;
    }
    for (const field of kept) if (previous?.[field] !== undefined) stored[field] = previous[field];
    return stored;
  }

  /** The stored configuration as clients see it: without secrets and the server's own fields. */
  publicConfig(type: string, stored: object): SourceConfig {
    return clientView(this.get(type), stored as SourceConfig, false);
  }

  /** The masked form of each secret that is set, by field. */
  secretHints(type: string, stored: object): { field: string; hint: string }[] {
    const config = stored as SourceConfig;
    return this.get(type)
      .secretFields.filter((field) => isSealedSecret(config[field]))
      .map((field) => ({ field, hint: (config[field] as SealedSecret).hint }));
  }
}

/** JSON Schema of what a client gives; secret fields are marked `writeOnly`. */
export function configJsonSchema(definition: SourceDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(definition.configSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of definition.secretFields) {
    if (properties[field]) properties[field] = { ...properties[field], writeOnly: true };
  }
  return schema;
}

export function isSealedSecret(value: unknown): value is SealedSecret {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SealedSecret).sealed === 'string' &&
    typeof (value as SealedSecret).hint === 'string'
  );
}

/**
 * The fields of a stored configuration a client may see; with `editable`, only those its
 * schema accepts (what an update starts from).
 */
function clientView(definition: SourceDefinition, stored: SourceConfig, editable = true): SourceConfig {
  const view: SourceConfig = {};
  for (const [key, value] of Object.entries(stored)) {
    if (definition.secretFields.includes(key) || definition.serverFields?.includes(key)) continue;
    if (editable && !(key in definition.configSchema.shape)) continue;
    view[key] = value;
  }
  return view;
}

function problemsOf(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => {
    const path = ['config', ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return { field: issue.keys.map((key) => `${path}.${key}`).join(', '), message: 'unknown field' };
    }
    return { field: path, message: issue.message };
  });
}

/** A source from its common fields and a configuration its type's definition made (or the catalog stored). */
export function sourceWithConfig(common: SourceBase & { type: SourceType }, config: SourceConfig): Source {
  // The configuration's shape is its type's definition's, checked when it was written.
  return { ...common, config };
}
