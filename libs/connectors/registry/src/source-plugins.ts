import type { SecretOpener, SourcePlugin, SourcePluginContext } from '@trove/domain';
import { folderSourcePlugin } from '@trove/connector-folder';
import { gitSourcePlugin } from '@trove/connector-git';
import { notionSourcePlugin } from '@trove/connector-notion';
import { webSourcePlugin } from '@trove/connector-web';

/**
 * What the server gives every plugin: its folders (the API's and the worker's configs both have
 * them) and the process's one secret box (built by the composition root from TROVE_SECRET_KEY;
 * unset without a key). A plugin reads its own settings from the environment.
 */
export interface SourceRegistrySettings {
  folders: { roots: string[]; cacheDir: string };
  secrets?: SecretOpener;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every source type, one line per connector lib: registering a connector is one line here.
 * Plugins build their definition and connector lazily, so the API never builds a connector.
 */
export function sourcePlugins(settings: SourceRegistrySettings, env: Env = process.env): SourcePlugin[] {
  const context: SourcePluginContext = {
    env,
    folderRoots: settings.folders.roots,
    secrets: settings.secrets,
  };
  return [
    notionSourcePlugin(context),
    folderSourcePlugin(context, settings.folders),
    webSourcePlugin(context),
    gitSourcePlugin(context),
  ];
}

/** The source types of the registry (the catalog refuses to read a source of another type). */
export function registeredSourceTypes(
  settings: Pick<SourceRegistrySettings, 'folders'>,
  env: Env = process.env,
): string[] {
  return sourcePlugins({ folders: settings.folders }, env).map((plugin) => plugin.type);
}
