import { type SourcePlugin, type SourcePluginContext, SourceType } from '@trove/domain';
import { WebConnector } from './web.connector';
import { webSourceDefinition } from './web.definition';
import { readWebSettings } from './web.settings';

/** The web source type, as the registry lists it: its settings come from `TROVE_WEB_*`. */
export function webSourcePlugin(context: SourcePluginContext): SourcePlugin {
  const settings = readWebSettings(context.env);
  return {
    type: SourceType.WEB,
    definition: () =>
      webSourceDefinition({
        allowPrivateNetworks: settings.allowPrivateNetworks,
        defaultMaxPages: settings.defaultMaxPages,
      }),
    connector: () => new WebConnector(settings),
  };
}
