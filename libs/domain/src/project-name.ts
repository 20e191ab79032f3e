import { TroveError, TroveErrorCode } from './errors';

const MAX_LENGTH = 200;
/**
 * Refused in names: control characters (NUL, newlines, tabs), format characters (zero-width
 * spaces and joiners, soft hyphen, BOM), the bidirectional controls that can make a name read
 * differently than it sorts ("Trojan Source"), line/paragraph separators and unassigned or
 * private-use code points.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Bidi_Control}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

/**
 * A project name as stored: NFC-normalised and trimmed, 1-200 characters, without invisible or
 * control characters. Throws a BAD_REQUEST TroveError otherwise.
 */
export function normalizeProjectName(name: string): string {
  return normalizeLabel(name, 'a project name');
}

/**
 * A name people read (a project's, an API key's), under the rules of project names; `what`
 * names it in the error ("a project name").
 */
export function normalizeLabel(name: string, what: string): string {
  const normalized = name.normalize('NFC').trim();
  if (!normalized || [...normalized].length > MAX_LENGTH) {
    throw new TroveError(TroveErrorCode.BadRequest, `${what} needs 1 to ${MAX_LENGTH} characters`);
  }
  const bad = FORBIDDEN.exec(normalized)?.[0] ?? loneSurrogate(normalized);
  if (bad) {
    const codePoint = bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${what} cannot contain control, invisible or bidirectional-override characters (U+${codePoint})`,
    );
  }
  return normalized;
}

/**
 * A source's name under the rules of project names, for every way a source is named (the add
 * and update mutations, the archive upload's form field). `unknown`: a multipart field can be
 * anything a client sends.
 */
export function normalizeSourceName(name: unknown): string {
  if (typeof name !== 'string') throw new TroveError(TroveErrorCode.BadRequest, 'a source name must be text');
  return normalizeLabel(name, 'a source name');
}

/** What two names must not share to be distinct projects: the normalised name, case-folded. */
export function projectNameKey(name: string): string {
  return normalizeProjectName(name).toLocaleLowerCase('und').normalize('NFC');
}

/** A lone surrogate (not valid Unicode), which \p{Cs} does not match under the u flag. */
function loneSurrogate(text: string): string | undefined {
  return [...text].find((c) => c.length === 1 && c >= '\uD800' && c <= '\uDFFF');
}
