import type { SafeZip } from '../archive/safe-zip';
import { textContent } from '../html/html-blocks';
import { elementsNamed, readXml } from '../html/xml-elements';

/** Title, author and language from an Office 2007+ package's docProps/core.xml, when filled in. */
export function coreProperties(zip: SafeZip, name: string): Promise<Record<string, string>> {
  return partProperties(zip, name, 'docProps/core.xml', {
    title: 'title',
    creator: 'creator',
    language: 'language',
  });
}

/**
 * Metadata from an XML part of a package (`fields`: element local name → metadata key), the
 * elements that are there and not empty; nothing when the part is missing.
 */
export async function partProperties(
  zip: SafeZip,
  name: string,
  path: string,
  fields: Record<string, string>,
): Promise<Record<string, string>> {
  const metadata: Record<string, string> = {};
  if (!zip.has(path)) return metadata;
  const $ = await readXml(zip, name, path);
  for (const [element, key] of Object.entries(fields)) {
    const el = elementsNamed($, element)[0];
    const value = el ? textContent(el) : '';
    if (value) metadata[key] = value;
  }
  return metadata;
}
