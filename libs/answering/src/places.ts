import type { AnswerPassage } from './answer';

/**
 * Where a passage's citation takes the reader: its document and link, or, unlinked, its anchor
 * or page. Two chunks of one section (one anchor, one link) are one place.
 */
export function citationPlace(passage: Pick<AnswerPassage, 'documentId' | 'citationUrl' | 'hit'>): string {
  const { hit } = passage;
  const where = passage.citationUrl ?? `${hit.anchor ?? ''}#${hit.page ?? ''}`;
  return `${passage.documentId}\u0000${where}`;
}

/** What placing a passage reads of it. */
type Placed = Pick<AnswerPassage, 'marker' | 'documentId' | 'citationUrl' | 'hit' | 'text'>;

export interface MergedPlaces<P extends Placed = AnswerPassage> {
  /** The marker that cites a passage's place: the first marker of the passages sharing it. */
  canonical: Map<number, number>;
  /**
   * The passages with each place's first passage holding the text of all of them (so a sentence
   * quoted from the second chunk is checked against the place it is cited under); same order.
   */
  passages: P[];
}

/** Passages that open the same place share one marker, so no citation is listed twice. */
export function mergePlaces<P extends Placed>(passages: P[]): MergedPlaces<P> {
  const first = new Map<string, P>();
  const canonical = new Map<number, number>();
  const texts = new Map<number, string[]>();
  for (const passage of passages) {
    const place = citationPlace(passage);
    const owner = first.get(place) ?? passage;
    first.set(place, owner);
    canonical.set(passage.marker, owner.marker);
    texts.set(owner.marker, [...(texts.get(owner.marker) ?? []), passage.text]);
  }
  return {
    canonical,
    passages: passages.map((p) => {
      const group = texts.get(p.marker);
      return group && group.length > 1 ? { ...p, text: group.join('\n\n') } : p;
    }),
  };
}
