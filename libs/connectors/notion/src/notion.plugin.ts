import { type SourcePlugin, type SourcePluginContext, SourceType } from '@trove/domain';
import { NotionConnector } from './notion.connector';
import { notionSourceDefinition } from './notion.definition';
import { readNotionSettings } from './notion.settings';

/** The Notion source type, as the registry lists it: its settings come from `TROVE_NOTION_*`. */
export function notionSourcePlugin(context: SourcePluginContext): SourcePlugin {
  const settings = readNotionSettings(context.env);
  return {
    type: SourceType.NOTION,
    definition: () => notionSourceDefinition(),
    connector: () => new NotionConnector(context.secrets, settings),
  };
}
