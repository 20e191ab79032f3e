/**
 * Documents a connector has already structured (Notion pages) travel as parsed JSON: a
 * `ParsedDocument`, read back by the parsed-JSON parser. Here so connectors (providers) and
 * parsing (a feature) share one definition without depending on each other.
 */
export const PARSED_JSON_MEDIA_TYPE = 'application/vnd.trove.parsed+json';
