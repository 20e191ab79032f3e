/**
 * The parts of Notion's API objects the connector reads. Structural on purpose: the SDK's
 * response unions are exhaustive but unwieldy, and unknown block types must pass through.
 */
export interface RichText {
  plain_text: string;
  href?: string | null;
  annotations?: { code?: boolean };
}

export interface NotionBlock {
  id: string;
  type: string;
  has_children: boolean;
  in_trash?: boolean;
  archived?: boolean;
  [type: string]: unknown;
}

/** A block with its children already fetched (all levels). */
export interface BlockNode {
  block: NotionBlock;
  children: BlockNode[];
}

export interface NotionPage {
  object: 'page';
  id: string;
  url: string;
  last_edited_time: string;
  created_time: string;
  in_trash?: boolean;
  archived?: boolean;
  parent: {
    type: string;
    page_id?: string;
    block_id?: string;
    database_id?: string;
    data_source_id?: string;
  };
  properties: Record<string, PropertyValue>;
}

export interface PropertyValue {
  id: string;
  type: string;
  [type: string]: unknown;
}

/** Everything needed to render one page as a document. */
export interface PageSnapshot {
  page: NotionPage;
  title: string;
  blocks: BlockNode[];
  /** Titles of the ancestors, root first. */
  breadcrumb: string[];
  databaseName?: string;
  /** Titles of pages named in relation properties, by page id. */
  relationTitles: Record<string, string>;
}
