/** A run of a chunk's text, and whether the answer quotes it. */
export interface TextSpan {
  text: string;
  quoted: boolean;
}

/** The pieces a quote is made of: its lines (table rows), then their sentences. */
function quotePieces(quote: string): string[] {
  return quote
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?。！？])\s+/))
    .map((piece) => piece.trim())
    .filter((piece) => /[\p{L}\p{N}]/u.test(piece));
}

/** The text with each run of whitespace as one space, and where each of its characters was. */
function squashed(text: string): { flat: string; at: number[] } {
  let flat = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (/\s/.test(text[i])) {
      if (flat.endsWith(' ')) continue;
      flat += ' ';
    } else flat += text[i];
    at.push(i);
  }
  return { flat, at };
}

/**
 * The chunk's text cut into runs, the quoted sentences marked. A quote is the sentences, list
 * items or table rows the answer took from the chunk (or from another chunk of the same place,
 * which then matches nothing here), joined: each piece is found on its own, whatever line breaks
 * the chunk has inside it.
 */
export function highlightQuote(text: string, quote: string | undefined): TextSpan[] {
  const { flat, at } = squashed(text);
  const ranges: [number, number][] = [];
  let cursor = 0;
  for (const piece of quote ? quotePieces(quote) : []) {
    const needle = piece.replace(/\s+/g, ' ');
    let found = flat.indexOf(needle, cursor);
    if (found < 0) found = flat.indexOf(needle);
    if (found < 0) continue;
    ranges.push([at[found], at[found + needle.length - 1] + 1]);
    cursor = found + needle.length;
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const spans: TextSpan[] = [];
  let end = 0;
  for (const [start, stop] of ranges) {
    if (stop <= end) continue;
    if (start > end) spans.push({ text: text.slice(end, start), quoted: false });
    const from = Math.max(start, end);
    const last = spans.at(-1);
    // Overlapping or touching quotes make one highlight.
    if (last?.quoted && from === end) last.text += text.slice(from, stop);
    else spans.push({ text: text.slice(from, stop), quoted: true });
    end = stop;
  }
  if (end < text.length) spans.push({ text: text.slice(end), quoted: false });
  return spans;
}
