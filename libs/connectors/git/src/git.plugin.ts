import type { SourcePlugin, SourcePluginContext } from '@trove/domain';
import { GitConnector } from './git.connector';
import { gitSourceDefinition } from './git.definition';
import { GIT_SOURCE_TYPE } from './git-source';
import { readGitSettings } from './git.settings';

/**
 * The Git source type, as the registry lists it: its settings come from `TROVE_GIT_*` (read and
 * checked here, so a wrong value stops the API and worker at start-up).
 */
export function gitSourcePlugin(context: SourcePluginContext): SourcePlugin {
  const settings = readGitSettings(context.env);
  return {
    type: GIT_SOURCE_TYPE,
    definition: () =>
      gitSourceDefinition({
        folderRoots: context.folderRoots,
        allowInsecure: settings.allowInsecure,
        allowPrivateNetworks: settings.allowPrivateNetworks,
        secrets: context.secrets,
      }),
    connector: () => new GitConnector(settings, context.secrets, context.folderRoots),
  };
}
