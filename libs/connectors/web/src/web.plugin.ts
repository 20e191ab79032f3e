import type { SourcePlugin, SourcePluginContext } from '@trove/domain';
import { WebConnector } from './web.connector';
import { webSourceDefinition } from './web.definition';
import { readWebSettings } from './web.settings';
import { WEB_SOURCE_TYPE } from './web-source';

/** The web source type, as the registry lists it: its settings come from `TROVE_WEB_*`. */
export function webSourcePlugin(context: SourcePluginContext): SourcePlugin {
  const settings = readWebSettings(context.env);
  return {
    type: WEB_SOURCE_TYPE,
    definition: () =>
      webSourceDefinition({
        allowPrivateNetworks: settings.allowPrivateNetworks,
        defaultMaxPages: settings.defaultMaxPages,
      }),
    connector: () => new WebConnector(settings),
  };
}
