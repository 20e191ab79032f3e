/** A document keeps at most this many warnings; the rest are counted. */
const MAX_WARNINGS = 20;

/** Distinct warnings, the first {@link MAX_WARNINGS} of them and a count of the rest. */
export function capWarnings(warnings: string[]): string[] {
  const unique = [...new Set(warnings)];
  if (unique.length <= MAX_WARNINGS) return unique;
  return [...unique.slice(0, MAX_WARNINGS), `… and ${unique.length - MAX_WARNINGS} more warnings`];
}

/** A library's message on one line, cut at 300 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
