/**
 * The BENCHMARKS.md section of `npm run eval -- --answers`: the answer-quality scores of one run
 * or of several (a "before" state beside the current code), per split and per kind of answer and
 * language, all scored by the current scoring code of libs/evaluation.
 */
import {
  type AnswerBreakdownRow,
  answerBreakdown,
  answerKind,
  answerLanguage,
  type AnswerOutcome,
  type AnswerQuestion,
  type AnswerScores,
  answerSplit,
  type OutcomeCitation,
} from '@trove/evaluation';

export const ANSWERS_HEADING = '## Answer quality (npm run eval -- --answers): extractive mode';

/** One answer as a run's JSON keeps it: enough to score it again. */
export interface StoredOutcome {
  question: string;
  mode: string;
  refused: boolean;
  citations: OutcomeCitation[];
  unsupportedSentences: number;
  latencyMs: number;
}

/** A run of the set: which code it measured (`state`), and its answers. */
export interface AnswerRun {
  /** How the row is named in the tables (`before`, `after`). */
  label: string;
  /** What was measured and how it was obtained (a commit, a work tree's changes). */
  state: string;
  /** The machine's load average (1 min) when the questions started and when they ended. */
  load?: { start: number; end: number; cores: number };
  outcomes: StoredOutcome[];
}

/** What a run's answers are to the scoring: each matched to its question of the current set. */
export function scoredOutcomes(run: AnswerRun, questions: readonly AnswerQuestion[]): AnswerOutcome[] {
  const byText = new Map(questions.map((q) => [q.question, q]));
  const answered = new Set(run.outcomes.map((o) => o.question));
  const missing = questions.filter((q) => !answered.has(q.question)).length;
  const unknown = run.outcomes.filter((o) => !byText.has(o.question)).length;
  if (missing > 0 || unknown > 0) {
    throw new Error(
      `the ${run.label} run answered another set (${missing} questions of this set missing, ${unknown} not in it): run it again with this set`,
    );
  }
  return run.outcomes.map((o) => ({
    question: byText.get(o.question)!,
    refused: o.refused,
    citedDocuments: o.citations.map((c) => c.document),
    citations: o.citations,
    unsupportedSentences: o.unsupportedSentences,
    latencyMs: o.latencyMs,
  }));
}

const rate = (value: number, n: number, of: number) => (of === 0 ? '–' : `${value.toFixed(3)} (${n}/${of})`);
const plain = (value: number, digits = 3) => (Number.isNaN(value) ? '–' : value.toFixed(digits));

function cells(scores: AnswerScores): string[] {
  return [
    rate(scores.answerQuotedRate, scores.quoted, scores.quotable),
    plain(scores.citationPrecision),
    plain(scores.hitRate),
    rate(scores.inDomainRefusalRate, scores.inDomainRefused, scores.inDomain),
    rate(scores.outOfDomainRefusalRate, scores.outOfDomainRefused, scores.outOfDomain),
    String(scores.duplicateCitations),
    plain(scores.p50Ms, 0),
    plain(scores.p95Ms, 0),
  ];
}

/** How many questions of `questions` fall in each split that `test` picks. */
function perSplit(questions: readonly AnswerQuestion[], test: (q: AnswerQuestion) => boolean): string {
  const picked = questions.filter(test);
  const train = picked.filter((q) => answerSplit(q) === 'train').length;
  return `${picked.length} (train ${train}, test ${picked.length - train})`;
}

/** The section's text, from its `## ` heading on. `runs` are shown in order (before, then after). */
export function answersSection(
  runs: AnswerRun[],
  questions: readonly AnswerQuestion[],
  context: { corpus: string[]; settings: string },
): string {
  const breakdowns = runs.map((run) => answerBreakdown(scoredOutcomes(run, questions)));
  const find = (rows: AnswerBreakdownRow[], split: string, group: string) =>
    rows.find((r) => r.split === split && r.group === group);
  const inDomain = (q: AnswerQuestion) => q.expected.length > 0;
  const quotable = (q: AnswerQuestion) => inDomain(q) && !!q.answers?.length;
  const count = (test: (q: AnswerQuestion) => boolean) => questions.filter(test).length;
  const kinds = ['sentence', 'code-line', 'table-row', 'list-item', 'toggle-child'] as const;
  const languages = ['en', 'ru', 'zh'] as const;
  const quotedInSplits = (['train', 'test'] as const).map((split) =>
    count((q) => quotable(q) && answerSplit(q) === split),
  );
  const largestGroup = Math.max(
    ...breakdowns[0]
      .filter((r) => r.split !== 'all' && r.group !== 'all')
      .map((r) => r.scores.inDomain + r.scores.outOfDomain),
  );

  const header = [
    '| split | state | answer quoted | citation precision | hit rate | false refusals | out-of-domain refusals | duplicate citations | p50 ms | p95 ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const splitRows = (['all', 'train', 'test'] as const).flatMap((split) =>
    runs.map(
      (run, i) =>
        `| ${split} | ${run.label} | ${cells(find(breakdowns[i], split, 'all')!.scores).join(' | ')} |`,
    ),
  );
  const groups = [...kinds, 'unlabelled', 'out-of-domain', ...languages, 'cross-lingual', 'nested'];
  const groupRows = (['train', 'test'] as const).flatMap((split) =>
    groups.flatMap((group) =>
      runs.flatMap((run, i) => {
        const row = find(breakdowns[i], split, group);
        return row ? [`| ${split} | ${group} | ${run.label} | ${cells(row.scores).join(' | ')} |`] : [];
      }),
    ),
  );
  const byKind = kinds.map((k) => `${k} ${count((q) => quotable(q) && answerKind(q) === k)}`).join(', ');
  const byLanguage = languages
    .map((l) => `${l} ${count((q) => inDomain(q) && answerLanguage(q) === l)}`)
    .join(', ');

  return `${ANSWERS_HEADING}

The answer-quality set of libs/evaluation (\`answer-questions.ts\`): ${questions.length} questions, split in two by a stable
hash of their text (\`train\`: what the answering's thresholds and weights may be tuned on; \`test\`: held out).
${perSplit(questions, inDomain)} are answerable from the corpus, ${perSplit(questions, quotable)} of them with the answer
string a good quote holds (by kind: ${byKind}); by the question's language the answerable ones are ${byLanguage},
${count((q) => inDomain(q) && !!q.crossLingual)} of them asked in another language than their passage, ${count((q) => inDomain(q) && !!q.nested)} answered by a nested
block (a database row's property, a list item's child, a toggle's child under a list item).
${perSplit(questions, (q) => !inDomain(q))} are out of domain (English, Russian, Chinese). Corpus: ${context.corpus.length}
documents (${context.corpus.join(', ')}), ingested through the real worker (parser, chunker, CPU embedder) into an eval
project of its own. Each question is answered by the Answerer as the API builds it, with no language model (the
extractive answer, the mode that runs offline) and ${context.settings}.

${runs.map((run) => `- **${run.label}**: ${run.state}${run.load ? ` (load average ${run.load.start.toFixed(1)} → ${run.load.end.toFixed(1)} on ${run.load.cores} cores)` : ''}`).join('\n')}

Answer quoted: a citation of an expected document whose quote holds one of the question's answer strings (case and
spacing aside), over the questions with answer strings. Citation precision: citations naming an expected document over
all citations of in-domain answers; hit rate: in-domain questions with at least one. False refusals: in-domain
questions answered "not enough context"; out-of-domain refusals: questions the corpus cannot answer, refused (the right
outcome). Duplicate citations: citations of one answer repeating an earlier one (same document and place). Latency:
one \`ask\` (query embedding, search, answer), client-side, beside the shared local services.

The set is small: a split holds ${Math.min(...quotedInSplits)}–${Math.max(...quotedInSplits)} questions with answer strings,
so one question moves a split's quoted rate by up to ${(100 / Math.min(...quotedInSplits)).toFixed(0)} points; the rows by kind
and language hold at most ${largestGroup} questions each and show where answers go wrong more than they measure a rate.

${header.join('\n')}
${splitRows.join('\n')}

By kind of answer (\`unlabelled\`: in-domain questions without an answer string, scored on citations and refusals only),
by the question's language, across languages and in nested blocks:

${header[0].replace('| split |', '| split | group |')}
${header[1].replace('| --- |', '| --- | --- |')}
${groupRows.join('\n')}
`;
}
