/** What names a search hit's origin: its document's title, file name and source. */
export interface HitOriginFields {
  title: string;
  /** Null when the document has left the catalog since it was indexed. */
  fileName?: string | null;
  /** Null for an uploaded file. */
  sourceName?: string | null;
}

/** Where uploaded files are said to come from. */
export const UPLOADS_LABEL = 'Uploads';

/**
 * "<source name> › <document title>", "Uploads › <title>" for an uploaded file, the title alone
 * for a document the catalog no longer holds: the one way every client names where a hit comes
 * from, in place of a link that says nothing to a reader.
 */
export function hitOrigin(hit: HitOriginFields): string {
  const from = hitSource(hit);
  return from ? `${from} › ${hit.title}` : hit.title;
}

/** The source a hit comes from ("Uploads" for an uploaded file); unset when the catalog no longer knows. */
export function hitSource(hit: Omit<HitOriginFields, 'title'>): string | undefined {
  return hit.sourceName || (hit.fileName ? UPLOADS_LABEL : undefined);
}
