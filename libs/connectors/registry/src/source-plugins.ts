import type { NotionConfig, WebConfig } from '@trove/config';
import { SecretBox } from '@trove/config';
import {
  type SourceConnector,
  type SourceConnectorDeps,
  type SourcePlugin,
  type SourcePluginContext,
  SourceType,
} from '@trove/domain';
import { FolderConnector, folderSourceDefinition } from '@trove/connector-folder';
import { gitSourcePlugin } from '@trove/connector-git';
import { NotionConnector, notionSourceDefinition } from '@trove/connector-notion';
import { WebConnector, webSourceDefinition } from '@trove/connector-web';

/**
 * The server settings the registry reads: the API's and the worker's configs both have them (the
 * API has no `notion` section: it builds definitions only). The built-in types' settings live in
 * `@trove/config`; a connector lib added since reads its own section from the environment.
 */
export interface SourceRegistrySettings {
  folders: { roots: string[]; cacheDir?: string };
  web: Pick<WebConfig, 'allowPrivateNetworks' | 'defaultMaxPages'>;
  secrets?: { key?: string };
}

/** What the worker's connectors need besides: the whole sections (the worker's config has them). */
export interface SourceConnectorSettings extends SourceRegistrySettings {
  folders: { roots: string[]; cacheDir: string };
  web: WebConfig;
  notion: NotionConfig;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every source type, one line per connector lib: registering a connector is one line here.
 * Plugins build their definition and connector lazily, so the API never builds a connector.
 */
export function sourcePlugins(
  settings: SourceRegistrySettings | SourceConnectorSettings,
  env: Env = process.env,
): SourcePlugin[] {
  const secrets = settings.secrets?.key ? new SecretBox(settings.secrets.key) : undefined;
  const context: SourcePluginContext = { env, folderRoots: settings.folders.roots, secrets };
  return [
    ...builtInPlugins(settings, context),
    // Connector libs with their own plugin (and their own settings section) go here, one line each.
    gitSourcePlugin(context),
  ];
}

/** The source types of the registry (the catalog refuses to read a source of another type). */
export function registeredSourceTypes(settings: SourceRegistrySettings, env: Env = process.env): string[] {
  return sourcePlugins(settings, env).map((plugin) => plugin.type);
}

/** The three types Trove started with, whose settings are sections of `@trove/config`. */
function builtInPlugins(
  settings: SourceRegistrySettings | SourceConnectorSettings,
  context: SourcePluginContext,
): SourcePlugin[] {
  // Connectors are built by the worker alone, from its whole config.
  const worker = (): SourceConnectorSettings => {
    if (!('notion' in settings)) throw new Error('connectors are built from the worker config');
    return settings;
  };
  return [
    {
      type: SourceType.NOTION,
      definition: () => notionSourceDefinition(),
      connector: () => new NotionConnector(context.secrets, worker().notion),
    },
    {
      type: SourceType.FOLDER,
      definition: () => folderSourceDefinition({ roots: settings.folders.roots }),
      connector: ({ blobs }: SourceConnectorDeps): SourceConnector =>
        new FolderConnector(worker().folders, blobs),
    },
    {
      type: SourceType.WEB,
      definition: () =>
        webSourceDefinition({
          allowPrivateNetworks: settings.web.allowPrivateNetworks,
          defaultMaxPages: settings.web.defaultMaxPages,
        }),
      connector: () => new WebConnector(worker().web),
    },
  ];
}
