import type { SafeZip } from '../archive/safe-zip';
import { textContent } from '../html/html-blocks';
import { elementsNamed, readXml } from '../html/xml-elements';

/** Title, author and language from an Office 2007+ package's docProps/core.xml, when filled in. */
export async function coreProperties(zip: SafeZip, name: string): Promise<Record<string, string>> {
  const metadata: Record<string, string> = {};
  if (!zip.has('docProps/core.xml')) return metadata;
  const $ = await readXml(zip, name, 'docProps/core.xml');
  for (const [element, key] of [
    ['title', 'title'],
    ['creator', 'creator'],
    ['language', 'language'],
  ] as const) {
    const el = elementsNamed($, element)[0];
    const value = el ? textContent(el) : '';
    if (value) metadata[key] = value;
  }
  return metadata;
}
