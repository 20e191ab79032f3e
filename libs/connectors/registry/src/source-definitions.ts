import { type BlobStore, SourceConnectors, SourceDefinitions } from '@trove/domain';
import { sourcePlugins, type SourceRegistrySettings } from './source-plugins';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every registered source type's definition (see `sourcePlugins`). Throws when a plugin's
 * settings are wrong or two plugins claim a type, so the API refuses to start.
 */
export function createSourceDefinitions(
  settings: SourceRegistrySettings,
  env: Env = process.env,
): SourceDefinitions {
  const plugins = sourcePlugins(settings, env);
  return new SourceDefinitions(
    plugins.map((plugin) => plugin.definition()),
    plugins.map((plugin) => plugin.type),
  );
}

/** Every registered source type's connector: the worker's side of `createSourceDefinitions`. */
export function createSourceConnectors(
  settings: SourceRegistrySettings,
  deps: { blobs: BlobStore },
  env: Env = process.env,
): SourceConnectors {
  const plugins = sourcePlugins(settings, env);
  return new SourceConnectors(
    plugins.map((plugin) => plugin.connector(deps)),
    { types: plugins.map((plugin) => plugin.type) },
  );
}
