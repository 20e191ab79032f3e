/**
 * Language-aware text pieces for citation checks: sentences and content words, segmented with
 * Intl.Segmenter (ICU: dictionary-based word breaks for Chinese and Japanese, sentence rules for
 * every script), so no language needs its own tokenizer.
 */

export type AnswerLanguage = 'en' | 'ru' | 'zh';

const HAN = /\p{Script=Han}/u;
const CYRILLIC = /\p{Script=Cyrillic}/gu;
const LATIN = /\p{Script=Latin}/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/** The language an answer is written in: the question's dominant script (Latin → English). */
export function questionLanguage(text: string): AnswerLanguage {
  const cyrillic = text.match(CYRILLIC)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  // A Han character carries about as much as a short word: weigh it like two letters.
  const cjk = (text.match(CJK)?.length ?? 0) * 2;
  if (cjk > cyrillic && cjk > latin) return 'zh';
  if (cyrillic > latin) return 'ru';
  return 'en';
}

const LIST_NUMBER = /^(\d{1,3}|[a-z])[.)]$/;
const sentenceSegmenter = new Intl.Segmenter('und', { granularity: 'sentence' });

/** A sentence of a text with its offset, so sentences of one chunk can be put back in order. */
export interface Sentence {
  text: string;
  start: number;
}

/** Sentences, trimmed, with blank ones and bare Markdown noise (`---`, `|`) dropped. */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  // ICU ends a sentence after a list number ("1."): it goes back in front of its item.
  let listNumber: Sentence | undefined;
  for (const { segment, index } of sentenceSegmenter.segment(text)) {
    // ICU keeps a line break inside a segment when no punctuation ends the line (lists, headings).
    let offset = index;
    for (const line of segment.split('\n')) {
      const trimmed = line.trim();
      const start = offset + line.indexOf(trimmed);
      offset += line.length + 1;
      if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
      if (LIST_NUMBER.test(trimmed)) {
        listNumber = { text: trimmed, start };
        continue;
      }
      sentences.push(
        listNumber
          ? { text: `${listNumber.text} ${trimmed}`, start: listNumber.start }
          : { text: trimmed, start },
      );
      listNumber = undefined;
    }
  }
  if (listNumber) sentences.push(listNumber);
  return sentences;
}

// Short lists of function words: enough to keep 'how', 'что', '如何' from counting as evidence.
const STOPWORDS: Record<AnswerLanguage, string> = {
  en: 'a an the and or but if then else of to in on at by for with from as into about over under is are was were be been being am do does did done have has had can could should would will shall may might must it its this that these those there here what which who whom whose when where why how i you he she we they me him her us them my your our their not no so than too very just also only any all each some such up out one get use used using via per',
  ru: 'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее её мне было вот от меня еще ещё нет о об из ему теперь когда даже ну ли если уже или ни быть был была были до вас нибудь уж вам там потом себя ей может они тут где есть надо ней для мы тебя их чем сам чтобы чтоб без будто чего раз тоже себе под будет ж тогда кто этот этого это эти этой этом того потому какой какая какие каким какой который которая которые почему зачем нужно можно при над между через после перед также сколько',
  zh: '的 了 和 是 在 我 有 就 不 人 都 一 一个 上 也 很 到 说 要 去 你 会 着 没有 看 好 自己 这 那 与 及 或 而 吗 呢 吧 啊 什么 怎么 如何 哪 哪些 为什么 多少 怎样 能 可以 应该 需要 把 被 让 给 从 对 向 以 其 该 此 时 中',
};
const STOPWORD_SET = new Set(Object.values(STOPWORDS).flatMap((list) => list.split(' ')));

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });

// Russian endings, longest first: enough for "релизы"/"релиз", "командой"/"команда" to meet.
const RUSSIAN_ENDINGS = (
  'ются ется ями ами ого его ому ему ыми ими ать ять ить ыть ешь ет ют ут ит ат ят ой ей ий ый ' +
  'ая яя ое ее ые ие ов ев ах ях ам ям ом ем ую юю а я ы и е у ю о ь'
).split(' ');
const ENGLISH_SUFFIXES = ['ing', 'ed', 'es', 's'];

/**
 * A light stem so inflected forms meet (no stemming library is installed): Russian words lose a
 * common ending and are cut to six letters, English ones lose -ing/-ed/-es/-s and a final -e and
 * are cut to seven. Han words are kept whole (no inflection). Good enough for an overlap score,
 * not for search.
 */
export function stem(word: string): string {
  if (HAN.test(word)) return word;
  if (/\p{Script=Cyrillic}/u.test(word)) {
    const ending = RUSSIAN_ENDINGS.find((e) => word.length - e.length >= 4 && word.endsWith(e));
    const base = ending ? word.slice(0, -ending.length) : word;
    return base.slice(0, 6);
  }
  let w = word;
  const suffix = ENGLISH_SUFFIXES.find((x) => w.length > x.length + 3 && w.endsWith(x));
  if (suffix) w = w.slice(0, -suffix.length);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w.slice(0, 7);
}

/** A word that carries no content of its own: a stop word, or a Latin or Cyrillic letter alone. */
export function isStopword(word: string): boolean {
  return STOPWORD_SET.has(word) || (!HAN.test(word) && word.length < 2);
}

/**
 * Content words of a text: word-like segments, lower-cased, without stop words and one-letter
 * Latin or Cyrillic words, lightly stemmed. Han words of one character count (许多 → 许多, 表 → 表)
 * unless they are stop words.
 */
export function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const { segment, isWordLike } of wordSegmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (!isWordLike) continue;
    if (isStopword(segment)) continue;
    words.push(stem(segment));
  }
  return words;
}

/** Share of `sentence`'s distinct content words found in `reference` (0 when it has none). */
export function lexicalOverlap(sentence: string, reference: Set<string> | string): number {
  const words = new Set(contentWords(sentence));
  if (words.size === 0) return 0;
  const known = typeof reference === 'string' ? new Set(contentWords(reference)) : reference;
  let found = 0;
  for (const word of words) if (known.has(word)) found++;
  return found / words.size;
}

/** Cosine similarity (0 for a zero vector): the one search's MMR uses. */
export { cosine } from '@trove/search';
