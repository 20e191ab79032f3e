import type { SealedSecret, Source } from '@trove/domain';

/** The type's name, as sources, the API and the registry spell it. */
export const NOTION_SOURCE_TYPE = 'NOTION';

/** A Notion source's stored configuration (the token sealed). */
export interface NotionSourceConfig {
  /** The integration token. */
  token: SealedSecret;
  /** Sync everything shared with the integration, instead of the roots below. */
  everything: boolean;
  rootPageIds: string[];
  rootDatabaseIds: string[];
}

export type NotionSource = Source<typeof NOTION_SOURCE_TYPE, NotionSourceConfig>;
