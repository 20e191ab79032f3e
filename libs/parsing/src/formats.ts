/**
 * The light part of `@trove/parsing`: media type detection, archive checks and unpacking, and the
 * Markdown parser — what the connectors and the api use, none of which parses a document in a
 * parsing thread. The full entry (`index.ts`) also loads every document parser (PDF, Office,
 * spreadsheets, images with sharp and its native library), which cost the api about a second of
 * CPU at every start for code it never runs.
 */
export * from './archive/folder-archive';
export * from './archive/safe-zip';
export * from './detect';
export * from './markdown.parser';
export * from './parsed-json.parser';
