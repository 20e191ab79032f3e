import type { SourcePlugin, SourcePluginContext } from '@trove/domain';
import { FolderConnector } from './folder.connector';
import { folderSourceDefinition } from './folder.definition';
import { FOLDER_SOURCE_TYPE } from './folder-source';

/**
 * The folder source type, as the registry lists it. Its settings are the server's folders:
 * `TROVE_FOLDER_ROOTS` (shared with every type that reads server paths) and the cache uploaded
 * archives are unpacked to (part of the storage layout backups know).
 */
export function folderSourcePlugin(
  context: SourcePluginContext,
  folders: { cacheDir: string },
): SourcePlugin {
  const roots = [...context.folderRoots];
  return {
    type: FOLDER_SOURCE_TYPE,
    definition: () => folderSourceDefinition({ roots }),
    connector: ({ blobs }) => new FolderConnector({ roots, cacheDir: folders.cacheDir }, blobs),
  };
}
