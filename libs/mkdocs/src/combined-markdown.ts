import { basename, extname } from 'node:path';
import { decodeUtf8, MarkdownParser, splitFrontMatter } from '@trove/parsing/formats';
import type { HeadingSlugify } from '@trove/parsing/formats';

/** One top-level section of a combined Markdown file, to be ingested as its own document. */
export interface CombinedMarkdownSection {
  /** The heading's text; for the intro, the front matter title or the file name. */
  title: string;
  /** The heading's id in the combined file; absent for the intro. */
  anchor?: string;
  /** The section's Markdown, its heading line included (front matter left out). */
  markdown: string;
  /** 0-based position in the file. */
  order: number;
  /** 1-based line in the file where the section starts. */
  line: number;
}

export interface SplitCombinedMarkdownOptions {
  /** Heading ids; GitHub's slugs by default (pass a MkDocs project's when the file is one of its pages). */
  slugify?: HeadingSlugify;
  /** Read `{#id}` attribute lists on headings (default true). */
  headingAttributes?: boolean;
}

/**
 * Splits one large Markdown file at its top-level headings: those of the smallest heading level
 * present (usually `#`). Text before the first such heading becomes an intro section when it has
 * any content. Headings inside code blocks, lists or quotes do not split. Never throws on empty
 * or heading-less text (an empty file gives no sections); bytes that are not UTF-8 fail permanently.
 */
export function splitCombinedMarkdown(
  fileName: string,
  markdown: Buffer | string,
  options: SplitCombinedMarkdownOptions = {},
): CombinedMarkdownSection[] {
  const source =
    typeof markdown === 'string'
      ? markdown.replace(/^\uFEFF/, '')
      : markdown.length
        ? decodeUtf8(fileName, markdown)
        : '';
  const parser = new MarkdownParser(options);
  const headings = parser.headings(source);
  const { metadata, bodyLine } = splitFrontMatter(fileName, source, { lenient: true });
  const lines = source.split(/\r?\n/);

  const topLevel = headings.length ? Math.min(...headings.map((h) => h.level)) : 0;
  const cuts = headings.filter((h) => h.level === topLevel);
  const sections: CombinedMarkdownSection[] = [];
  const introEnd = cuts.length ? cuts[0].line - 1 : lines.length;
  const intro = lines
    .slice(bodyLine - 1, introEnd)
    .join('\n')
    .trim();
  if (intro) {
    sections.push({
      title: metadata['title'] || basename(fileName, extname(fileName)),
      markdown: `${intro}\n`,
      order: 0,
      line: bodyLine + lines.slice(bodyLine - 1, introEnd).findIndex((line) => line.trim()),
    });
  }
  cuts.forEach((heading, i) => {
    const end = i + 1 < cuts.length ? cuts[i + 1].line - 1 : lines.length;
    sections.push({
      title: heading.text || `Section ${sections.length + 1}`,
      ...(heading.anchor ? { anchor: heading.anchor } : {}),
      markdown: `${lines
        .slice(heading.line - 1, end)
        .join('\n')
        .trimEnd()}\n`,
      order: sections.length,
      line: heading.line,
    });
  });
  return sections;
}
