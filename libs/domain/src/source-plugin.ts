/**
 * What a connector lib registers: both sides of its source type, the API's `SourceDefinition`
 * and the worker's `SourceConnector`, built from what the server gives every type. Each connector
 * lib exports one plugin factory; `@trove/source-definitions` lists them, one line each, so adding
 * a source type needs no edit elsewhere.
 */
import type { z } from 'zod/v4';
import type { SourceType } from './model';
import type { BlobStore } from './ports';
import type { SourceConnector } from './source-connector';
import type { SourceDefinition } from './source-definition';

/** Opens sealed secrets of a source's configuration (the API's and worker's `SecretBox`). */
export interface SecretOpener {
  decrypt(sealed: string): string;
}

/** What the server gives every plugin, in the API and in the worker. */
export interface SourcePluginContext {
  /**
   * Environment variables: a plugin reads its own section from them (e.g. `TROVE_GIT_*`), with
   * a schema of its own, and throws naming every variable at fault.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** Server-side folders sources may read (TROVE_FOLDER_ROOTS). */
  folderRoots: readonly string[];
  /** Unset when TROVE_SECRET_KEY is not set: secrets cannot be opened. */
  secrets?: SecretOpener;
}

/** What the worker gives a plugin's connector besides the context. */
export interface SourceConnectorDeps {
  blobs: BlobStore;
}

export interface SourcePlugin {
  readonly type: SourceType;
  /** The API's side: configuration schema, secrets, validation, webhooks. */
  definition(): SourceDefinition;
  /** The worker's side: discovery, fetching, citations. */
  connector(deps: SourceConnectorDeps): SourceConnector;
}

/**
 * A plugin's settings from the environment variables starting with `prefix` (blank values count
 * as unset), parsed by its schema; throws naming every variable at fault, so a wrong value stops
 * the API and the worker at start-up.
 */
export function readPluginSettings<S extends z.ZodType>(
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
  prefix: string,
  what: string,
): z.output<S> {
  const given = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key.startsWith(prefix) && value !== ''),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid ${what} settings: ${problems}`);
  }
  return parsed.data;
}
