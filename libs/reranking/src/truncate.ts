/** Cuts a passage to `maxChars`, at a word boundary when one is near: model rerankers are slow on long inputs. */
export function truncatePassage(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return space > maxChars * 0.8 ? cut.slice(0, space) : cut;
}
