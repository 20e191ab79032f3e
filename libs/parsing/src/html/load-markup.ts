import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { capNesting, DEFAULT_MAX_NESTING } from './cap-nesting';

/**
 * Parses HTML after capping its nesting depth (see {@link capNesting}). `xhtml` reads the markup
 * with htmlparser2, which honours `<a id="x"/>` as an empty element the way XHTML means it; plain
 * HTML goes through parse5, the spec's algorithm, which browsers agree with on broken markup.
 */
export function loadHtml(markup: string, options: { xhtml?: boolean } = {}): CheerioAPI {
  if (options.xhtml) {
    const capped = capNesting(markup, { maxDepth: DEFAULT_MAX_NESTING, selfClosing: true });
    return cheerio.load(capped, {
      xml: {
        xmlMode: false,
        recognizeSelfClosing: true,
        decodeEntities: true,
        lowerCaseAttributeNames: true,
      },
    });
  }
  return cheerio.load(capNesting(markup, { maxDepth: DEFAULT_MAX_NESTING }));
}

/** Parses XML (EPUB container, OPF, NCX) with the same nesting cap; element names keep their prefixes. */
export function loadXml(markup: string): CheerioAPI {
  return cheerio.load(capNesting(markup, { maxDepth: DEFAULT_MAX_NESTING, xml: true }), { xml: true });
}
