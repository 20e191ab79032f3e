/**
 * HTML and XML parsers keep a stack of open elements and walk it on every tag: parse5 and
 * htmlparser2 both take seconds to minutes on a document nested 100 000 levels deep, and any
 * recursive walk of the resulting tree overflows the stack. This pre-pass scans the markup once
 * (linear, no tree) and removes the tags of elements nested deeper than a cap, keeping their text.
 */

export interface CapNestingOptions {
  /** Elements deeper than this lose their tags (their content stays, attached to the ancestor). */
  maxDepth: number;
  /** Plain XML: no void elements, raw-text elements or implied end tags; names are case-sensitive. */
  xml?: boolean;
  /** `<x/>` closes the element (XML, and XHTML read by htmlparser2); in HTML it opens it. */
  selfClosing?: boolean;
}

/** Nesting depth beyond which real documents do not go; parsers stay fast below it. */
export const DEFAULT_MAX_NESTING = 256;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);

/** Opening one of these ends an open `<p>` (the HTML rule parsers apply). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);

const TABLE_SECTION = ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'];

/** Elements whose start tag ends an open element of these names (optional end tags). */
const IMPLIED_END: Record<string, readonly string[]> = {
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  thead: TABLE_SECTION,
  tbody: TABLE_SECTION,
  tfoot: TABLE_SECTION,
  option: ['option'],
  optgroup: ['optgroup', 'option'],
  rt: ['rt', 'rp'],
  rp: ['rt', 'rp'],
};

/**
 * Returns the markup unchanged when no element is nested deeper than `maxDepth`; otherwise a copy
 * without the start and end tags of the deeper elements. Runs in linear time on any input.
 */
export function capNesting(markup: string, options: CapNestingOptions): string {
  const html = !options.xml;
  const selfClosing = options.selfClosing ?? !html;
  const names: string[] = [];
  const dropped: boolean[] = [];
  // How many elements of each name are open: an end tag with no open element is ignored in O(1).
  const open = new Map<string, number>();
  const cuts: number[] = [];

  const push = (name: string, start: number, end: number) => {
    const deep = names.length >= options.maxDepth;
    if (deep) cuts.push(start, end);
    names.push(name);
    dropped.push(deep);
    open.set(name, (open.get(name) ?? 0) + 1);
  };
  const pop = (): { name: string; dropped: boolean } => {
    const name = names.pop()!;
    open.set(name, open.get(name)! - 1);
    return { name, dropped: dropped.pop()! };
  };

  const length = markup.length;
  let i = 0;
  while (i < length) {
    const lt = markup.indexOf('<', i);
    if (lt < 0) break;
    const next = markup.charCodeAt(lt + 1);
    if (markup.startsWith('!--', lt + 1)) {
      i = after(markup, '-->', lt + 4);
    } else if (markup.startsWith('![CDATA[', lt + 1)) {
      i = after(markup, ']]>', lt + 9);
    } else if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      i = after(markup, '>', lt + 2);
    } else if (next === 0x2f /* / */) {
      const nameEnd = scanName(markup, lt + 2);
      const end = after(markup, '>', nameEnd);
      if (nameEnd > lt + 2) {
        const name = tagName(markup.slice(lt + 2, nameEnd), html);
        if ((open.get(name) ?? 0) > 0) {
          let closed = pop();
          while (closed.name !== name) closed = pop();
          if (closed.dropped) cuts.push(lt, end);
        }
      }
      i = end;
    } else if (isNameStart(next)) {
      const nameEnd = scanName(markup, lt + 1);
      const name = tagName(markup.slice(lt + 1, nameEnd), html);
      const end = tagEnd(markup, nameEnd);
      const isSelfClosed = markup.charCodeAt(end - 2) === 0x2f; /* "/>" */
      if (html) {
        const ends = IMPLIED_END[name];
        for (;;) {
          const top = names[names.length - 1];
          if (top === undefined || !((top === 'p' && CLOSES_P.has(name)) || ends?.includes(top))) break;
          pop();
        }
      }
      if (!(html && VOID.has(name)) && !(selfClosing && isSelfClosed)) push(name, lt, end);
      i = end;
      if (html && RAW_TEXT.has(name) && !(selfClosing && isSelfClosed)) {
        // Raw text ends only at the matching end tag; markup-looking text inside is not markup.
        const close = new RegExp(`</${name}[\\s/>]`, 'ig');
        close.lastIndex = end;
        const match = close.exec(markup);
        i = match ? match.index : length;
      }
    } else {
      i = lt + 1;
    }
  }

  if (cuts.length === 0) return markup;
  const parts: string[] = [];
  let from = 0;
  for (let c = 0; c < cuts.length; c += 2) {
    parts.push(markup.slice(from, cuts[c]));
    from = cuts[c + 1];
  }
  parts.push(markup.slice(from));
  return parts.join('');
}

function after(markup: string, token: string, from: number): number {
  const at = markup.indexOf(token, from);
  return at < 0 ? markup.length : at + token.length;
}

function isNameStart(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x3a ||
    code > 0x7f
  );
}

/** Tag names end at white space, `/` or `>`. */
function scanName(markup: string, from: number): number {
  let i = from;
  while (i < markup.length) {
    const code = markup.charCodeAt(i);
    if (code === 0x3e || code === 0x2f || code === 0x20 || (code >= 0x09 && code <= 0x0d)) break;
    i++;
  }
  return i;
}

/** Index just past the `>` that ends a start tag, skipping quoted attribute values. */
function tagEnd(markup: string, from: number): number {
  let i = from;
  while (i < markup.length) {
    const code = markup.charCodeAt(i);
    if (code === 0x3e) return i + 1;
    if (code === 0x3d /* = */) {
      i++;
      while (i < markup.length && /\s/.test(markup[i])) i++;
      const quote = markup[i];
      if (quote === '"' || quote === "'") {
        const close = markup.indexOf(quote, i + 1);
        i = close < 0 ? markup.length : close + 1;
        continue;
      }
      continue;
    }
    i++;
  }
  return markup.length;
}

function tagName(raw: string, html: boolean): string {
  return html ? raw.toLowerCase() : raw;
}
