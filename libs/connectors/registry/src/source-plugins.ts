import { SecretBox } from '@trove/config';
import type { SourcePlugin, SourcePluginContext } from '@trove/domain';
import { folderSourcePlugin } from '@trove/connector-folder';
import { gitSourcePlugin } from '@trove/connector-git';
import { notionSourcePlugin } from '@trove/connector-notion';
import { webSourcePlugin } from '@trove/connector-web';

/**
 * The server settings every plugin may use (the API's and the worker's configs both have them):
 * the server's folders and the secret key. A plugin reads its own settings from the environment.
 */
export interface SourceRegistrySettings {
  folders: { roots: string[]; cacheDir: string };
  secrets?: { key?: string };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every source type, one line per connector lib: registering a connector is one line here.
 * Plugins build their definition and connector lazily, so the API never builds a connector.
 */
export function sourcePlugins(settings: SourceRegistrySettings, env: Env = process.env): SourcePlugin[] {
  const secrets = settings.secrets?.key ? new SecretBox(settings.secrets.key) : undefined;
  const context: SourcePluginContext = { env, folderRoots: settings.folders.roots, secrets };
  return [
    notionSourcePlugin(context),
    folderSourcePlugin(context, settings.folders),
    webSourcePlugin(context),
    gitSourcePlugin(context),
  ];
}

/** The source types of the registry (the catalog refuses to read a source of another type). */
export function registeredSourceTypes(settings: SourceRegistrySettings, env: Env = process.env): string[] {
  return sourcePlugins(settings, env).map((plugin) => plugin.type);
}
