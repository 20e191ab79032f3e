import type { RerankCandidate } from '@trove/domain';

/**
 * The learned reranker's features, in the order of the model's weights. Everything is computed
 * from what search already returned (leg ranks and scores, the chunk's text and metadata), so a
 * candidate costs a tokenisation of its text and nothing else.
 */
export const FEATURE_NAMES = [
  // BM25 leg: score relative to the query's best candidate (BM25 scales vary by query), rank.
  'bm25.scoreRatio',
  'bm25.reciprocalRank',
  'bm25.missing',
  // kNN leg (ES cosine score (1 + cos) / 2): raw, gap to the query's best candidate, rank.
  'knn.score',
  'knn.gapToBest',
  'knn.reciprocalRank',
  'knn.missing',
  // Fusion as search computed it.
  'fused.scoreRatio',
  'fused.reciprocalRank',
  // Lexical match of the query in the chunk, terms weighted by rarity among the candidates.
  'terms.coverage',
  'terms.weightedCoverage',
  'terms.phrase',
  'terms.proximity',
  'title.coverage',
  // The chunk itself.
  'chunk.logLength',
  'chunk.first',
  'chunk.reciprocalPosition',
  'language.match',
  // Standing within the candidates (z-scores), and how sure each leg is of its own top.
  'bm25.zScore',
  'knn.zScore',
  'bm25.logScore',
  'bm25.confidence×scoreRatio',
  'knn.confidence×score',
  'legs.both',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** Ranks and scores missing from a leg count as this much worse than the leg's worst candidate. */
const MISSING_RANK = Number.POSITIVE_INFINITY;

const WORD = /[\p{L}\p{N}]+/gu;
/** Terms are compared on their first letters: a cheap stemmer that works for English and Russian alike. */
const STEM_LENGTH = 6;

/** Short function words that would make every passage "cover" a question. */
const STOPWORDS = new Set(
  (
    'a an and are as at be by do does for from has have how in is it its of on or that the this to was were what when where which who why with ' +
    'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтобы без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между ли'
  ).split(' '),
);

/** Scripts written without spaces between words: a run of them is many words, not one. */
const UNSPACED_SCRIPTS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const UNSPACED = new RegExp(`[${UNSPACED_SCRIPTS}]`, 'u');
/** Alternating runs of unspaced scripts and of anything else. */
const UNSPACED_RUNS = new RegExp(`[${UNSPACED_SCRIPTS}]+|[^${UNSPACED_SCRIPTS}]+`, 'gu');
/**
 * The words of a run that mixes unspaced scripts (Chinese, Japanese, Korean) with others: those
 * runs become their character bigrams, as Elasticsearch's cjk analyzer (the BM25 leg) reads them.
 * (ICU's dictionary word segmentation scored the same on CMRC 2018's train split, 0.994 nDCG@10.)
 */
function unspacedWords(word: string): string[] {
  return (word.match(UNSPACED_RUNS) ?? []).flatMap((run) => {
    if (!UNSPACED.test(run)) return [run];
    const chars = [...run];
    if (chars.length === 1) return chars;
    return chars.slice(1).map((c, i) => chars[i] + c);
  });
}

/**
 * Lower-cased word stems of a text, in order, stop words kept out. Chinese, Japanese and Korean
 * runs become their character bigrams.
 */
export function terms(text: string): string[] {
  const words = (text.toLowerCase().match(WORD) ?? []).flatMap((w) =>
    UNSPACED.test(w) ? unspacedWords(w) : [w],
  );
  return words.filter((w) => !STOPWORDS.has(w)).map((w) => w.slice(0, STEM_LENGTH));
}

/** 'ru' for Cyrillic-dominated text, 'en' for Latin, undefined when neither dominates. */
export function scriptLanguage(text: string): string | undefined {
  const cyrillic = (text.match(/\p{Script=Cyrillic}/gu) ?? []).length;
  const latin = (text.match(/\p{Script=Latin}/gu) ?? []).length;
  if (cyrillic + latin === 0) return undefined;
  if (cyrillic > 2 * latin) return 'ru';
  if (latin > 2 * cyrillic) return 'en';
  return undefined;
}

/**
 * The feature vectors of one query's candidates (one row per candidate, columns in
 * FEATURE_NAMES order). Per-query normalisation: BM25 and fused scores divided by the best among
 * the candidates, the kNN score as a gap to the best; rarity of a query term is its share of
 * candidates that miss it.
 */
export function extractFeatures(query: string, candidates: RerankCandidate[]): number[][] {
  const queryTerms = [...new Set(terms(query))];
  const queryBigrams = bigrams(terms(query));
  const queryLanguage = scriptLanguage(query);
  const docs = candidates.map((c) => {
    const words = terms(c.text);
    return { words, set: new Set(words) };
  });
  // Rarity among the candidates: a term every candidate has separates none of them.
  const weights = queryTerms.map((term) => {
    const having = docs.filter((d) => d.set.has(term)).length;
    return Math.log(1 + candidates.length / (1 + having));
  });
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const bestBm25 = Math.max(0, ...candidates.map((c) => c.bm25?.score ?? 0));
  const bestKnn = Math.max(0, ...candidates.map((c) => c.knn?.score ?? 0));
  const bestFused = Math.max(0, ...candidates.map((c) => c.fusedScore));
  const bm25Stats = spread(candidates.flatMap((c) => (c.bm25 ? [c.bm25.score] : [])));
  const knnStats = spread(candidates.flatMap((c) => (c.knn ? [c.knn.score] : [])));

  return candidates.map((candidate, i) => {
    const { words, set } = docs[i];
    const matched = queryTerms.map((term) => set.has(term));
    const matchedCount = matched.filter(Boolean).length;
    const titleTerms = new Set(terms(`${candidate.title} ${candidate.headingPath.join(' ')}`));
    const docBigrams = new Set(bigrams(words));
    const phraseHits = queryBigrams.filter((b) => docBigrams.has(b)).length;
    const length = candidate.tokenCount ?? words.length;
    const language = candidate.language ?? scriptLanguage(candidate.text);
    const features: Record<FeatureName, number> = {
      'bm25.scoreRatio': candidate.bm25 && bestBm25 > 0 ? candidate.bm25.score / bestBm25 : 0,
      'bm25.reciprocalRank': 1 / (candidate.bm25?.rank ?? MISSING_RANK),
      'bm25.missing': candidate.bm25 ? 0 : 1,
      'knn.score': candidate.knn?.score ?? 0,
      'knn.gapToBest': candidate.knn ? bestKnn - candidate.knn.score : 1,
      'knn.reciprocalRank': 1 / (candidate.knn?.rank ?? MISSING_RANK),
      'knn.missing': candidate.knn ? 0 : 1,
      'fused.scoreRatio': bestFused > 0 ? candidate.fusedScore / bestFused : 0,
      'fused.reciprocalRank': 1 / (i + 1),
      'terms.coverage': queryTerms.length ? matchedCount / queryTerms.length : 0,
      'terms.weightedCoverage': weightSum > 0 ? sum(weights.filter((_, t) => matched[t])) / weightSum : 0,
      'terms.phrase': queryBigrams.length ? phraseHits / queryBigrams.length : 0,
      'terms.proximity': proximity(words, new Set(queryTerms.filter((_, t) => matched[t]))),
      'title.coverage': queryTerms.length
        ? queryTerms.filter((t) => titleTerms.has(t)).length / queryTerms.length
        : 0,
      'chunk.logLength': Math.log(1 + length),
      'chunk.first': candidate.position === 0 ? 1 : 0,
      'chunk.reciprocalPosition': 1 / (1 + candidate.position),
      'language.match': !queryLanguage || !language ? 0.5 : language.startsWith(queryLanguage) ? 1 : 0,
      'bm25.zScore': candidate.bm25 ? bm25Stats.z(candidate.bm25.score) : -3,
      'knn.zScore': candidate.knn ? knnStats.z(candidate.knn.score) : -3,
      'bm25.logScore': Math.log1p(candidate.bm25?.score ?? 0),
      'bm25.confidence×scoreRatio':
        bm25Stats.topGap * (candidate.bm25 && bestBm25 > 0 ? candidate.bm25.score / bestBm25 : 0),
      'knn.confidence×score': knnStats.topGap * (candidate.knn ? knnStats.z(candidate.knn.score) : -3),
      'legs.both': candidate.bm25 && candidate.knn ? 1 : 0,
    };
    return FEATURE_NAMES.map((name) => features[name]);
  });
}

/**
 * The same features keyed by name, one record per candidate: how they are kept beside an answer
 * (training data from feedback), readable whatever order a later model puts its weights in.
 */
export function namedFeatures(query: string, candidates: RerankCandidate[]): Record<FeatureName, number>[] {
  return extractFeatures(query, candidates).map(
    (row) =>
      Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, row[i]])) as Record<FeatureName, number>,
  );
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * A leg's score distribution over the candidates: z-score of a score, and how far its best stands
 * above the runner-up in standard deviations (a leg sure of its top answer).
 */
function spread(scores: number[]): { z: (score: number) => number; topGap: number } {
  if (scores.length < 2) return { z: () => 0, topGap: 0 };
  const mean = sum(scores) / scores.length;
  const sd = Math.sqrt(sum(scores.map((x) => (x - mean) ** 2)) / scores.length) || 1;
  const [first, second] = [...scores].sort((a, b) => b - a);
  return { z: (score) => Math.max(-3, Math.min(3, (score - mean) / sd)), topGap: (first - second) / sd };
}

function bigrams(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

/**
 * How close together the matched query terms are: (matched terms) / (shortest window of words
 * holding all of them), 1 when adjacent, near 0 when scattered; 0 with fewer than two matched.
 */
export function proximity(words: string[], wanted: Set<string>): number {
  if (wanted.size < 2) return 0;
  const counts = new Map<string, number>();
  let have = 0;
  let best = Number.POSITIVE_INFINITY;
  let left = 0;
  for (let right = 0; right < words.length; right++) {
    const word = words[right];
    if (!wanted.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (counts.get(word) === 1) have += 1;
    while (have === wanted.size) {
      best = Math.min(best, right - left + 1);
      const drop = words[left];
      if (wanted.has(drop)) {
        counts.set(drop, counts.get(drop)! - 1);
        if (counts.get(drop) === 0) have -= 1;
      }
      left += 1;
    }
  }
  return Number.isFinite(best) ? wanted.size / best : 0;
}
