import type { EmbeddingProvider } from '@trove/domain';
import { stripMarkers } from './markers';
import { type QuotableKind, type QuotableUnit, quotableUnits } from './quotable-units';
import { contentWords, cosine, questionLanguage, splitSentences } from './text';

/** A passage whose sentences may be quoted, best first. */
export interface ExtractivePassage {
  marker: number;
  documentId: string;
  position: number;
  text: string;
  /**
   * The document's title and the passage's heading path: what a unit with nothing of its own to
   * be read under (a database row's property, a toggle's child the renderer split off) is read
   * under instead.
   */
  title?: string;
  headingPath?: string[];
}

export interface ExtractedSentence {
  marker: number;
  text: string;
  kind: QuotableKind;
  score: number;
}

/** Prose sentences shorter than this answer nothing on their own (a lone heading, "Example:"). */
const MIN_CONTENT_WORDS = 3;
/** Candidates embedded per answer: bounds the cost on long chunks. */
const MAX_CANDIDATES = 80;
/**
 * How units are scored. The novelty and reason weights changed no outcome on the train half of
 * the answer-quality set (where any of three quotes counts); their values are the smallest that
 * settle the cases of extractive.spec.ts.
 */
export const EXTRACTIVE_WEIGHTS = {
  /** Weight of the question-word coverage next to the embedding cosine. */
  lexical: 0.2,
  /**
   * Weight of the share of a unit's own words the question does not hold: a unit that only
   * restates the question (the decision a "why" asks about, the parent of the list item that
   * answers) is not the answer.
   */
  novelty: 0.1,
  /**
   * Added to a unit that gives a reason when the question asks why: the explanation under a
   * decision (a toggle's child) or a sentence that says "because".
   */
  reason: 0.05,
  /**
   * Added to the cosine of a unit whose passage is written in another script than the question:
   * the multilingual embedder scores a question and a sentence in two languages lower than in
   * one, so an unrelated sentence in the question's language would outrank the answer in another.
   * The same bias as the answerer's relevance allowance (RELEVANCE_RULES.crossLingualMargin), the
   * same value.
   */
  crossLingual: 0.055,
};

const ASKS_WHY = /\b(why|reason|rationale)\b|почему|зачем|причин|为什么|为何/iu;
/** A heading or toggle summary under which the text explains a decision. */
const HEADS_REASON =
  /\b(why|reasons?|rationale|background|motivation)\b|почему|зачем|причин|обоснован|为什么|为何|原因|理由/iu;
const GIVES_REASON =
  /\b(because|since|so that|due to|in order to|otherwise)\b|потому|так как|поскольку|из-за|чтобы|иначе|因为|由于/iu;

/**
 * The units of the top passages that best answer the question. A unit is what can be quoted on
 * its own (quotableUnits: a sentence, a code line, a table row with its header, a list item, a
 * toggle's child), scored with what it is read under (the header, parent item or toggle summary):
 * the cosine of its embedding with the question's, plus a share of the question's content words
 * it contains (identifiers split at `_` and `.`, so `MAX_SEND_RETRIES` meets "retries"), plus a
 * bonus for a reason when the question asks why. The best `count` are returned in reading order
 * (documents in the order their best passage ranked, then by position in the document, then by
 * place in the chunk), so the quotes read as the sources do.
 *
 * `said` is what the thread's earlier answers already quoted: a follow-up adds to it. The best unit
 * is kept even when it was said (it is usually the follow-up's answer: the earlier turn may have
 * quoted it in passing); the other places go to units not said yet, and stay empty rather than
 * repeat the thread.
 */
export async function extractSentences(
  question: string,
  questionVector: number[] | undefined,
  passages: ExtractivePassage[],
  embedder: EmbeddingProvider,
  count: number,
  signal?: AbortSignal,
  said?: string,
): Promise<ExtractedSentence[]> {
  const candidates: { passage: ExtractivePassage; unit: QuotableUnit; context: string; scored: string }[] =
    [];
  for (const passage of passages) {
    for (const unit of quotableUnits(passage.text)) {
      const own = contentWords(unit.text).length;
      if (own < (unit.kind === 'sentence' || unit.kind === 'toggle-child' ? MIN_CONTENT_WORDS : 1)) continue;
      const context = unit.context || passageContext(passage);
      // A list item without a parent (a database row's property, "Owner: …") says little without
      // the page or section it belongs to; a prose sentence is embedded on its own, so the
      // sentences of one passage are not all pulled toward its heading.
      const embedded = unit.context || (unit.kind === 'list-item' ? context : '');
      const scored = embedded ? `${embedded}\n${unit.text}` : unit.text;
      candidates.push({ passage, unit, context, scored });
    }
  }
  if (candidates.length === 0) {
    // Every unit is short (a list of terms): quote the best passage's first line.
    const first = passages[0] && splitSentences(passages[0].text)[0];
    return first ? [{ marker: passages[0].marker, text: first.text, kind: 'sentence', score: 0 }] : [];
  }
  const considered = candidates.slice(0, MAX_CANDIDATES);
  const vectors = questionVector
    ? await embedder.embed(
        considered.map((c) => c.scored),
        'passage',
        { signal },
      )
    : undefined;
  const questionWords = matchWords(question);
  const asksWhy = ASKS_WHY.test(question);
  const { lexical: lexicalWeight, novelty: noveltyWeight, crossLingual } = EXTRACTIVE_WEIGHTS;
  const language = questionLanguage(question);
  const passageLanguage = new Map(passages.map((p) => [p, questionLanguage(p.text)]));
  /** How well each unit matches the question: the cosine plus the share of its words. */
  const match = considered.map((candidate, i) => {
    const lexical = questionWords.size ? coverage(questionWords, matchWords(candidate.scored)) : 0;
    const semantic = vectors && questionVector ? cosine(questionVector, vectors[i]) : 0;
    const across = vectors && passageLanguage.get(candidate.passage) !== language ? crossLingual : 0;
    return semantic + across + lexicalWeight * lexical;
  });
  const scored = considered.map((candidate, i) => {
    const explains = asksWhy && givesReason(candidate.unit, candidate.context);
    // Asked why, the reason under a decision matches the question as well as the decision it is
    // read under does: the question names the decision, the answer is what explains it.
    let matched = match[i];
    if (explains && candidate.context) {
      considered.forEach((other, j) => {
        if (j !== i && other.unit.text && candidate.context.includes(other.unit.text))
          matched = Math.max(matched, match[j]);
      });
    }
    const novelty = newWords(questionWords, candidate.unit.text);
    const reason = explains ? EXTRACTIVE_WEIGHTS.reason : 0;
    return { ...candidate, novelty, score: matched + noveltyWeight * novelty + reason };
  });
  // A unit holding nothing the question does not (the parent item of the answer, a heading-like
  // line) is never the answer while another unit is left.
  const informative = scored.filter((c) => c.novelty > 0);
  const ranked = [...(informative.length ? informative : scored)].sort((a, b) => b.score - a.score);
  const alreadySaid = said ? comparable(said) : '';
  const best = (
    alreadySaid ? ranked.filter((c, i) => i === 0 || !alreadySaid.includes(comparable(c.unit.text))) : ranked
  ).slice(0, count);
  const documentRank = new Map<string, number>();
  passages.forEach((p, i) => {
    if (!documentRank.has(p.documentId)) documentRank.set(p.documentId, i);
  });
  best.sort(
    (a, b) =>
      documentRank.get(a.passage.documentId)! - documentRank.get(b.passage.documentId)! ||
      a.passage.position - b.passage.position ||
      a.unit.start - b.unit.start,
  );
  return best.map((s) => ({
    marker: s.passage.marker,
    text: s.unit.text,
    kind: s.unit.kind,
    score: Math.round(s.score * 1000) / 1000,
  }));
}

/**
 * Whether a unit gives a reason: it says so ("because", "так как", "因为"), or it is the child of a
 * toggle or sits under a heading or summary that announces a reason ("Why…?", "Background").
 */
export function givesReason(unit: Pick<QuotableUnit, 'kind' | 'text'>, context: string): boolean {
  return unit.kind === 'toggle-child' || GIVES_REASON.test(unit.text) || HEADS_REASON.test(context);
}

/**
 * The two innermost headings of a passage (with its document's title): context for a unit without
 * its own. Two, because a toggle split off a list item has the item, then the summary.
 */
function passageContext(passage: ExtractivePassage): string {
  const path = [passage.title, ...(passage.headingPath ?? [])]
    .map((p) => p?.trim() ?? '')
    // A Markdown page's title is usually its first heading too.
    .filter((p, i, all) => p && p !== all[i - 1]);
  return path.slice(-2).join(' › ');
}

/** Content words, with identifiers also split into their parts (`max_send_retries`, `db.host`). */
function matchWords(text: string): Set<string> {
  const parts = text.replace(/[_.]/g, ' ').replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  return new Set([...contentWords(text), ...contentWords(parts)]);
}

/** Share of the unit's own words and numbers that the question does not hold. */
function newWords(questionWords: Set<string>, text: string): number {
  const words = [...matchWords(text), ...(text.match(/\p{N}+/gu) ?? [])];
  if (words.length === 0) return 0;
  return words.filter((w) => !questionWords.has(w)).length / words.length;
}

/** Share of the question's content words that occur in the unit. */
function coverage(questionWords: Set<string>, words: Set<string>): number {
  let found = 0;
  for (const word of questionWords) if (words.has(word)) found++;
  return found / questionWords.size;
}

/** Text as compared with what a thread said: markers dropped, case and spacing ignored. */
function comparable(text: string): string {
  return stripMarkers(text).toLowerCase();
}

/** The sentence with its citation marker before its closing punctuation: "… rollback [2]." */
export function withMarker(sentence: string, marker: number): string {
  const match = /([.!?。！？…:;：；]+)$/u.exec(sentence);
  if (!match) return `${sentence} [${marker}]`;
  const body = sentence.slice(0, -match[1].length).trimEnd();
  return `${body} [${marker}]${match[1]}`;
}
