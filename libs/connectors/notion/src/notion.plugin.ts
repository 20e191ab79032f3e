import type { SourcePlugin, SourcePluginContext } from '@trove/domain';
import { NotionConnector } from './notion.connector';
import { notionSourceDefinition } from './notion.definition';
import { readNotionSettings } from './notion.settings';
import { NOTION_SOURCE_TYPE } from './notion-source';

/** The Notion source type, as the registry lists it: its settings come from `TROVE_NOTION_*`. */
export function notionSourcePlugin(context: SourcePluginContext): SourcePlugin {
  const settings = readNotionSettings(context.env);
  return {
    type: NOTION_SOURCE_TYPE,
    definition: () => notionSourceDefinition(),
    connector: () => new NotionConnector(context.secrets, settings),
  };
}
