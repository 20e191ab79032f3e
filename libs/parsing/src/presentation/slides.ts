import type { ParsedBlock } from '@trove/domain';
import { htmlToBlocks } from '../html/html-blocks';
import { loadHtml } from '../html/load-markup';

/** One slide as read from a presentation: its title, its content and speaker notes as HTML. */
export interface Slide {
  /** 1-based position in the show. */
  number: number;
  title: string;
  html: string;
  notesHtml: string;
}

/** Heading of a slide's notes, below the slide's own heading. */
export const NOTES_HEADING = 'Notes';

/**
 * A slide's blocks: one section per slide, headed `Slide 3: <title>` (`Slide 3` without a title),
 * its speaker notes in a `Notes` section below it; every block carries the slide number as its
 * page, which is what its citations open.
 */
export function slideBlocks(slide: Slide): ParsedBlock[] {
  const heading = slide.title ? `Slide ${slide.number}: ${slide.title}` : `Slide ${slide.number}`;
  const blocks = [
    ...blocksOf(slide.html, [heading]),
    ...blocksOf(slide.notesHtml, [heading, NOTES_HEADING]),
  ].map((block) => ({ ...block, page: slide.number }));
  // A slide with only a title is still a place to cite.
  if (blocks.length === 0 && slide.title) {
    blocks.push({ kind: 'paragraph', text: slide.title, headingPath: [heading], page: slide.number });
  }
  return blocks;
}

function blocksOf(html: string, headingPath: string[]): ParsedBlock[] {
  if (!html.trim()) return [];
  return htmlToBlocks(loadHtml(html)('body')[0], { section: { headingPath } });
}
