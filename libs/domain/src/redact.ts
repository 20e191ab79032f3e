/**
 * An absolute POSIX path of two or more segments, after a start, a space, a quote, a bracket,
 * `=` or `:` (so URLs like `https://host/a/b` do not match: their path follows a host name).
 */
const ABSOLUTE_PATH = /(^|[\s'"([=:,])\/(?:[^\s'"()[\],/]+\/)+([^\s'"()[\],/]*)/g;

/**
 * Replaces absolute server paths in a message with `…/<last segment>`: a client learns which
 * file failed, not where the server keeps it.
 */
export function redactPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, (_match, before: string, last: string) => `${before}…/${last}`);
}
