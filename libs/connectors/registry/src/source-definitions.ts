import { SourceDefinitions, SourceType } from '@trove/domain';
import { folderSourceDefinition } from '@trove/connector-folder';
import { notionSourceDefinition } from '@trove/connector-notion';
import { webSourceDefinition } from '@trove/connector-web';

/** The server settings the definitions read (allowed folder roots, web safety); the API's config has them. */
export interface SourceDefinitionSettings {
  folders: { roots: string[] };
  web: { allowPrivateNetworks: boolean; defaultMaxPages: number };
}

/**
 * Every source type's definition: registering a connector is one line here. Throws when a
 * `SourceType` has no definition, so the API refuses to start incomplete.
 */
export function createSourceDefinitions(settings: SourceDefinitionSettings): SourceDefinitions {
  return new SourceDefinitions(
    [
      notionSourceDefinition(),
      folderSourceDefinition({ roots: settings.folders.roots }),
      webSourceDefinition({
        allowPrivateNetworks: settings.web.allowPrivateNetworks,
        defaultMaxPages: settings.web.defaultMaxPages,
      }),
    ],
    Object.values(SourceType),
  );
}
