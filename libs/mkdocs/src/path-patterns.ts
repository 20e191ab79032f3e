/**
 * gitignore-style patterns, as MkDocs' `exclude_docs`, `draft_docs` and `not_in_nav` use them
 * (through pathspec's GitIgnoreSpec): `*.py`, `/drafts/`, `api/**`, `!keep.md`, `[abc]`, `?`, and
 * `**` as a whole segment for any depth. The last pattern that matches decides.
 */
export interface PathPatterns {
  /** True when the posix path (relative to docs_dir) is matched, i.e. excluded. */
  matches(path: string): boolean;
}

interface CompiledPattern {
  regex: RegExp;
  negated: boolean;
}

/** Compiles gitignore lines; blank lines and `#` comments are skipped. */
export function compilePathPatterns(lines: readonly string[]): PathPatterns {
  const patterns = lines.map(compileLine).filter((p): p is CompiledPattern => p !== undefined);
  return {
    matches(path: string): boolean {
      let matched = false;
      for (const pattern of patterns) if (pattern.regex.test(path)) matched = !pattern.negated;
      return matched;
    },
  };
}

function compileLine(line: string): CompiledPattern | undefined {
  // Trailing spaces are dropped unless escaped.
  let pattern = line.replace(/(?<!\\)\s+$/, '');
  if (!pattern || pattern.startsWith('#')) return undefined;
  let negated = false;
  if (pattern.startsWith('!')) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('\\!') || pattern.startsWith('\\#')) {
    pattern = pattern.slice(1);
  }
  const directoryOnly = pattern.endsWith('/');
  if (directoryOnly) pattern = pattern.replace(/\/+$/, '');
  // A slash anywhere but at the end ties the pattern to the root; otherwise it matches at any depth.
  const anchored = pattern.includes('/');
  pattern = pattern.replace(/^\/+/, '');
  if (!pattern) return undefined;

  const segments = pattern.split('/');
  let body = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') body += last ? '.*' : '(?:.*/)?';
    else body += translateSegment(segment) + (last ? '' : '/');
  });
  const prefix = anchored ? '^' : '^(?:.*/)?';
  // A match on a folder covers everything inside it; a folder-only pattern never matches a file itself.
  const suffix = directoryOnly ? '/.*$' : '(?:/.*)?$';
  return { regex: new RegExp(prefix + body + suffix, 's'), negated };
}

/**
 * A regex for one path segment matched as Python's fnmatch does (`*`, `?`, `[…]`, `[!…]`), as
 * literate-nav matches its wildcards segment by segment.
 */
export function globSegmentRegex(segment: string): RegExp {
  return new RegExp(`^${translateSegment(segment)}$`, 's');
}

function translateSegment(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '\\' && i + 1 < segment.length) {
      out += escapeRegex(segment[++i]);
    } else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let inner = segment.slice(i + 1, end);
      if (inner.startsWith('!')) inner = `^${inner.slice(1)}`;
      out += `[${inner.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
