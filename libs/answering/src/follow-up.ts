/**
 * Follow-up questions without a language model: "and for the Russian office?" after "How do I
 * deploy in the Berlin office?" is read as "How do I deploy in the Russian office?". A follow-up
 * is recognised by its form (a leading "and"/"what about"/"а"/"а как"/"那", a trailing "呢", a
 * pronoun, or no content words of its own), never by its topic; a question with none of these
 * stands alone and is left as it is.
 */
import { isStopword, stem } from './text';

/** An earlier turn of a thread, as a rewrite reads it. */
export interface PriorTurn {
  question: string;
  /** The standalone question retrieval used, when that turn was itself rewritten. */
  standaloneQuestion?: string;
  answer?: string;
}

/** What makes a question a follow-up. */
export const FOLLOW_UP_RULES = {
  /** More content words than this and the question is a question of its own, whatever it starts with. */
  maxContentWords: 4,
  /** A fragment this short ("Moscow?", "pricing?") leans on the question before it. */
  fragmentWords: 2,
};

const END = String.raw`(?=[\s\p{P}]|$)`;
const lead = (source: string) => new RegExp(`^(?:${source})${END}[\\s\\p{P}]*`, 'iu');

/** Openings that hand the rest of the sentence to the previous question (stripped before aligning). */
const LEADS: RegExp[] = [
  // English
  lead(String.raw`(?:(?:and|but|so|ok(?:ay)?|also),?\s+)?(?:what|how)\s+about`),
  lead(String.raw`(?:the\s+)?same(?:\s+question)?(?=\s+(?:for|in|with|about|on))`),
  lead(String.raw`and|also|or|plus`),
  // Russian
  lead(String.raw`(?:(?:а|и|ну),?\s+)?(?:что|как)\s+насч[её]т`),
  lead(String.raw`(?:а|и)\s+(?:как|что)`),
  lead(String.raw`то\s+же(?:\s+самое)?(?=\s+(?:для|в|во|на|про|с)\s)`),
  lead(String.raw`а|и|также|тоже|ещё|еще`),
  // Chinese (no spaces: the boundary check does not apply)
  /^(?:那么|那如果|那(?![个些])|还有|另外)[\s\p{P}]*/u,
];
/** A Chinese follow-up ends in 呢 ("那俄罗斯办公室呢？"). */
const TRAILING_NE = /呢[\s\p{P}]*$/u;

/** Words that point back at what was asked before. */
const PRONOUNS = new Set(
  (
    'it its they them their theirs this these those there he she him her his ' +
    'это этого этому этим этом эти этих он она оно они его него её ее неё нее их них ему ей им там туда тот та те того такой такая такие ' +
    '它 它们 他 她 他们 她们 这 那 这个 那个 这些 那些 其 此 该'
  ).split(' '),
);

/** Words a follow-up asks with that say nothing about the topic ("more details?", "подробнее?"). */
const GENERIC = new Set(
  (
    'more detail details example examples explain elaborate else tell show mean exactly ' +
    'подробнее подробно пример примеры объясни расскажи больше значит ' +
    '详细 更多 例子 举例 解释 说说 具体'
  ).split(' '),
);

/** The small words a noun phrase may carry ("for the", "для", "在"): a remainder of only these and content words names a thing. */
const PHRASE_WORDS = new Set(
  (
    'in for at on of to the a an with from by about into ' +
    'в во на для с со у о об при по к ко из за от про ' +
    '在 的 对 于 里'
  ).split(' '),
);

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{Script=Han}/u;

interface Token {
  text: string;
  start: number;
  end: number;
  /** A content word (not a stop word, pronoun or generic follow-up word). */
  content: boolean;
  stem: string;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const { segment, index, isWordLike } of wordSegmenter.segment(text)) {
    if (!isWordLike) continue;
    const lower = segment.normalize('NFKC').toLowerCase();
    const content = !isStopword(lower) && !PRONOUNS.has(lower) && !GENERIC.has(lower);
    tokens.push({ text: segment, start: index, end: index + segment.length, content, stem: stem(lower) });
  }
  return tokens;
}

/** Two words of one term: the same stem, or (Latin, Cyrillic) a long enough common beginning. */
function sameTerm(a: Token, b: Token): boolean {
  if (a.stem === b.stem) return true;
  if (HAN.test(a.text) || HAN.test(b.text)) return false;
  const x = a.text.toLowerCase();
  const y = b.text.toLowerCase();
  let common = 0;
  while (common < x.length && common < y.length && x[common] === y[common]) common++;
  return common >= Math.max(4, Math.min(x.length, y.length) - 2);
}

type NameShape = 'number' | 'acronym' | 'capitalized';

/** The shape of a word that names something (a place, product, version), or undefined. */
function nameShape(token: Token): NameShape | undefined {
  if (/\p{N}/u.test(token.text)) return 'number';
  if (token.text.length >= 2 && token.text === token.text.toUpperCase() && /\p{Lu}/u.test(token.text)) {
    return 'acronym';
  }
  return /^\p{Lu}/u.test(token.text) ? 'capitalized' : undefined;
}

/** The follow-up with its leading cue (and a trailing 呢) taken off; `cued` when there was one. */
function stripCue(question: string): { rest: string; offset: number; cued: boolean } {
  const trimmed = question.trim();
  let rest = trimmed;
  let offset = question.indexOf(trimmed);
  let cued = false;
  for (const pattern of LEADS) {
    const match = pattern.exec(rest);
    if (match && match[0].length > 0 && match[0].length < rest.length) {
      rest = rest.slice(match[0].length);
      offset += match[0].length;
      cued = true;
      break;
    }
  }
  if (TRAILING_NE.test(rest)) {
    rest = rest.replace(TRAILING_NE, '');
    cued = true;
  }
  return { rest, offset, cued };
}

/**
 * The follow-up as a question of its own, made from the thread's last question (its standalone
 * form when it had one), or undefined when the question already stands alone (or there is no
 * earlier turn). Where the follow-up names a different thing in a place the last question had one
 * ("and for the Russian office?", "а в Москве?", "那俄罗斯办公室呢？"), that place is replaced;
 * otherwise the follow-up gets the last question's content words beside it.
 */
export function rewriteFollowUp(question: string, turns: readonly PriorTurn[]): string | undefined {
  const last = turns.at(-1);
  if (!last) return undefined;
  const anchor = (last.standaloneQuestion ?? last.question).trim();
  const { rest, offset, cued } = stripCue(question);
  const remainder = tokenize(rest).map((t) => ({ ...t, start: t.start + offset, end: t.end + offset }));
  const words = remainder.map((t) => t.text.normalize('NFKC').toLowerCase());
  const content = remainder.filter((t) => t.content);
  const pointsBack = words.some((w) => PRONOUNS.has(w));
  const fragment = tokenize(question).length <= FOLLOW_UP_RULES.fragmentWords;
  const elliptical =
    content.length === 0 ||
    ((cued || pointsBack || fragment) && content.length <= FOLLOW_UP_RULES.maxContentWords);
  if (!elliptical) return undefined;

  const previous = tokenize(anchor);
  // Only a noun phrase ("for the Russian office", "в Москве") takes the place of one.
  const phrase = remainder.every((t, i) => t.content || PHRASE_WORDS.has(words[i]));
  const aligned = content.length > 0 && phrase ? replaceSlot(anchor, previous, question, content) : undefined;
  return aligned ?? withContext(question, previous, content);
}

/**
 * The last question with the follow-up's new words in the place of the words they stand for: next
 * to a word both share ("Berlin office" → "Russian office"), or in the place of a name of the
 * same shape ("Berlin" → "Moscow", "v2" → "v3"). Undefined when no place is found.
 */
function replaceSlot(
  anchor: string,
  previous: Token[],
  question: string,
  content: Token[],
): string | undefined {
  const anchorContent = previous.filter((t) => t.content);
  const shared = content.map((t) => anchorContent.some((a) => sameTerm(a, t)));
  if (shared.every(Boolean)) return anchor; // nothing new: the same question again
  const firstNew = shared.indexOf(false);
  let lastNew = firstNew;
  while (lastNew + 1 < content.length && !shared[lastNew + 1]) lastNew++;
  if (shared.slice(lastNew + 1).some((s) => !s)) return undefined; // two separate new parts
  const replacement = question.slice(content[firstNew].start, content[lastNew].end);

  if (shared.some(Boolean)) {
    // The shared word the new ones lean on: right after them ("Russian office"), else right before.
    const after = lastNew + 1 < content.length;
    const neighbour = content[after ? lastNew + 1 : firstNew - 1];
    const at = previous
      .map((t, i) => (t.content && sameTerm(t, neighbour) ? i : -1))
      .filter((i) => i >= 0)
      .at(-1);
    if (at === undefined) return undefined;
    const step = after ? -1 : 1;
    const old: Token[] = [];
    for (let i = at + step; i >= 0 && i < previous.length; i += step) {
      const token = previous[i];
      if (!token.content || content.some((t) => sameTerm(t, token))) break;
      old.push(token);
    }
    if (old.length === 0) {
      // Nothing stood there: the new words go in front of (or after) the shared one.
      const join = HAN.test(replacement) ? '' : ' ';
      const place = previous[at];
      return after
        ? `${anchor.slice(0, place.start)}${replacement}${join}${anchor.slice(place.start)}`
        : `${anchor.slice(0, place.end)}${join}${replacement}${anchor.slice(place.end)}`;
    }
    const [start, end] = after ? [old.at(-1)!.start, old[0].end] : [old[0].start, old.at(-1)!.end];
    return `${anchor.slice(0, start)}${replacement}${anchor.slice(end)}`;
  }

  // Nothing shared: a name for a name of the same shape (the question's first word is capitalised anyway).
  const shape = nameShape(content[firstNew]);
  if (!shape || content[firstNew].start === firstWordStart(question)) return undefined;
  const names = previous.filter(
    (t, i) => t.content && nameShape(t) === shape && (i > 0 || shape !== 'capitalized'),
  );
  const target = names.at(-1);
  if (!target) return undefined;
  // A name of several words ("New York") is replaced whole.
  let first = previous.indexOf(target);
  while (first > 0 && previous[first - 1].content && nameShape(previous[first - 1]) === shape) first--;
  if (first === 0 && shape === 'capitalized') first = 1;
  return `${anchor.slice(0, previous[first].start)}${replacement}${anchor.slice(target.end)}`;
}

function firstWordStart(text: string): number {
  return text.search(/[\p{L}\p{N}]/u);
}

/** The follow-up with the last question's content words beside it, in brackets. */
function withContext(question: string, previous: Token[], content: Token[]): string {
  const seen = new Set<string>();
  const context: string[] = [];
  for (const token of previous) {
    if (!token.content || content.some((t) => sameTerm(t, token)) || seen.has(token.stem)) continue;
    seen.add(token.stem);
    context.push(token.text);
  }
  const asked = question.trim();
  return context.length ? `${asked} (${context.join(' ')})` : asked;
}
