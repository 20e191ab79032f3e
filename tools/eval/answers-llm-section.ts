/**
 * The BENCHMARKS.md section of `npm run eval -- --answers --answers-llm <model>`: a local model's
 * answers beside the extractive ones, the same questions in the same run, scored by libs/evaluation.
 */
import { type AnswerOutcome, type AnswerScores, scoreAnswers } from '@trove/evaluation';

/** One section per model. */
export const answersLlmHeading = (model: string) =>
  `## Answer quality (npm run eval -- --answers --answers-llm ${model}): local language model beside extractive`;

/** One answer of a run, with what its mode and verification say. */
export interface ModeOutcome {
  outcome: AnswerOutcome;
  mode: string;
  fallbackReason?: string;
  checkedSentences: number;
  unsupportedSentences: number;
}

/** A run of the chosen questions in one way of answering. */
export interface ModeRun {
  label: string;
  outcomes: ModeOutcome[];
}

const rate = (value: number, n: number, of: number) => (of === 0 ? '–' : `${value.toFixed(3)} (${n}/${of})`);
const plain = (value: number, digits = 3) => (Number.isNaN(value) ? '–' : value.toFixed(digits));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

function row(run: ModeRun, scores: AnswerScores): string {
  const checked = run.outcomes.reduce((n, o) => n + o.checkedSentences, 0);
  const unsupported = run.outcomes.reduce((n, o) => n + o.unsupportedSentences, 0);
  const mean = run.outcomes.reduce((n, o) => n + o.outcome.latencyMs, 0) / Math.max(1, run.outcomes.length);
  return [
    run.label,
    rate(scores.answerQuotedRate, scores.quoted, scores.quotable),
    checked === 0 ? '–' : rate((checked - unsupported) / checked, checked - unsupported, checked),
    plain(scores.citationPrecision),
    plain(scores.hitRate),
    rate(scores.inDomainRefusalRate, scores.inDomainRefused, scores.inDomain),
    rate(scores.outOfDomainRefusalRate, scores.outOfDomainRefused, scores.outOfDomain),
    seconds(mean),
    seconds(scores.p50Ms),
    seconds(scores.p95Ms),
  ].join(' | ');
}

/** How the answers of a run were made: written by the model, replaced (and why), refused. */
function modes(run: ModeRun): string {
  const counts = new Map<string, number>();
  for (const o of run.outcomes) {
    const key = o.fallbackReason
      ? `extractive fallback (${o.fallbackReason.replace(/ of \d+ ms/, '').replace(/: .*/, '')})`
      : o.mode;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ${n}`).join(', ');
}

export function answersLlmSection(
  model: string,
  runs: ModeRun[],
  context: {
    split: string;
    questions: number;
    corpus: string[];
    settings: string;
    state: string;
    load: string;
  },
): string {
  const scored = runs.map((run) => scoreAnswers(run.outcomes.map((o) => o.outcome)));
  return `${answersLlmHeading(model)}

The answer-quality set of libs/evaluation, split \`${context.split}\` (${context.questions} questions), over the same
${context.corpus.length} documents as the extractive section, answered twice in one run, question by question: by the
Answerer without a model (extractive), and by the Answerer with the local model (${context.settings}).
State: ${context.state}; ${context.load}.

Answer quoted: a citation of an expected document whose quote (the passage sentence that best supports the sentences
citing it) holds an answer string. Supported sentences: sentences of the answers checked against what they cite that
passed (an uncited sentence fails). Citation precision, hit rate and refusals as in the extractive section. Seconds: one
\`ask\` each, client-side; the model ran on this shared 2-core machine beside the local services.

| answers | answer quoted | supported sentences | citation precision | hit rate | false refusals | out-of-domain refusals | mean s | p50 s | p95 s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${runs.map((run, i) => `| ${row(run, scored[i])} |`).join('\n')}

How the answers were made: ${runs.map((run) => `**${run.label}**: ${modes(run)}`).join('; ')}.
`;
}
