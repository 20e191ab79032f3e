import { joinChunkTexts } from '@trove/search';

/**
 * A document's text rebuilt from its chunks: in position order, the overlap the chunker repeats
 * between consecutive chunks written once (the same join search uses for passages), and a gap in
 * positions (a chunk missing) marked so nobody reads two distant places as one.
 */
export function reconstructText(chunks: { position: number; text: string }[]): string {
  const ordered = [...chunks].sort((a, b) => a.position - b.position);
  let text = '';
  let previous: number | undefined;
  for (const chunk of ordered) {
    if (previous === undefined) text = chunk.text;
    else if (chunk.position === previous + 1) text = joinChunkTexts(text, chunk.text);
    else text = `${text}\n\n[…]\n\n${chunk.text}`;
    previous = chunk.position;
  }
  return text;
}

/** The resource's Markdown: a title line, then the text. */
export function documentMarkdown(title: string, chunks: { position: number; text: string }[]): string {
  const body = reconstructText(chunks);
  return body ? `# ${title}\n\n${body}\n` : `# ${title}\n\n(no indexed text)\n`;
}
