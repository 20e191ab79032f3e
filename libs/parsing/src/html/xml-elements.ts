import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import type { SafeZip } from '../archive/safe-zip';
import { decodeMarkup } from './decode-html';
import { isElement } from './html-blocks';
import { loadXml } from './load-markup';

/** An XML part of a zip package (EPUB, OOXML, OpenDocument), decoded as it declares and parsed. */
export async function readXml(zip: SafeZip, name: string, path: string): Promise<CheerioAPI> {
  return loadXml(decodeMarkup(`${name}: ${path}`, await zip.read(path)).text);
}

/** Elements by local name, whatever namespace prefix the file uses (`dc:title`, `opf:item`). */
export function elementsNamed($: CheerioAPI, name: string): Element[] {
  const wanted = name.toLowerCase();
  return $('*')
    .toArray()
    .filter((el): el is Element => isElement(el) && localName(el) === wanted);
}

/** Child elements with this local name (any, when no name is given). */
export function children(parent: Element, name?: string): Element[] {
  const wanted = name?.toLowerCase();
  return parent.children.filter(
    (child): child is Element => isElement(child) && (wanted === undefined || localName(child) === wanted),
  );
}

/** Descendant elements with this local name, in document order (walked without recursion). */
export function descendants(root: Element, name: string): Element[] {
  const wanted = name.toLowerCase();
  const found: Element[] = [];
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (localName(node) === wanted) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return found;
}

/** An element's name without its namespace prefix, lower-cased. */
export function localName(el: Element): string {
  const name = el.name.toLowerCase();
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute by its local name, whatever its prefix (`text:outline-level`, `r:id`). */
export function attribute(el: Element, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(el.attribs)) {
    const lower = key.toLowerCase();
    const colon = lower.indexOf(':');
    if ((colon < 0 ? lower : lower.slice(colon + 1)) === wanted) return value;
  }
  return undefined;
}

/** Text made safe to place in generated HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
