import { z } from 'zod';
import {
  FEEDBACK_EXPORT_FORMAT,
  type FeedbackExportLine,
  type FeedbackHit,
  normalizeQuestion,
} from '@trove/domain';
import { FEATURE_NAMES } from './features';
import type { PairwiseGroup, TrainingPair } from './linear-model';

const hitSchema = z.object({
  chunkId: z.string().min(1),
  documentId: z.string(),
  rank: z.number().int().positive(),
  score: z.number(),
  features: z.record(z.number()),
});

/** One line of the feedback export, checked. */
export const feedbackLineSchema = z
  .object({
    format: z.literal(FEEDBACK_EXPORT_FORMAT),
    id: z.string().min(1),
    answerId: z.string().min(1),
    projectId: z.string().min(1),
    question: z.string().min(1),
    standaloneQuestion: z.string().min(1).optional(),
    mode: z.string(),
    target: z.enum(['answer', 'passage']),
    chunkId: z.string().min(1).optional(),
    documentId: z.string().optional(),
    vote: z.union([z.literal(1), z.literal(-1)]),
    comment: z.string().optional(),
    apiKeyId: z.string().optional(),
    hits: z.array(hitSchema),
    featureNames: z.array(z.string()),
    createdAt: z.string().datetime({ offset: true }),
  })
  .refine((line) => line.target === 'answer' || line.chunkId !== undefined, {
    message: 'a passage vote names its chunkId',
    path: ['chunkId'],
  }) satisfies z.ZodType<FeedbackExportLine>;

/** The lines of a feedback export (JSON Lines); a bad line is an error naming its number. */
export function parseFeedbackLines(text: string, source = 'feedback'): FeedbackExportLine[] {
  const lines: FeedbackExportLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Error(`${source}:${i + 1}: not JSON`);
    }
    const parsed = feedbackLineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${source}:${i + 1}: ${issue.path.join('.') || 'line'}: ${issue.message}`);
    }
    lines.push(parsed.data);
  });
  return lines;
}

/** One question's passage votes, tallied: what training learns from. */
export interface FeedbackQuestion {
  /** The question as searched (the rewritten follow-up when there was one). */
  question: string;
  /** The hits of the question's latest voted answer, best first. */
  hits: FeedbackHit[];
  /** Net vote per voted chunk among `hits`: the sign of the sum of its votes (ties dropped). */
  votes: Map<string, 1 | -1>;
}

/** What became of the export's lines. */
export interface FeedbackTally {
  lines: number;
  /** Votes on whole answers: kept in the export (content gaps), not used for ranking. */
  answerVotes: number;
  passageVotes: number;
  /** Questions with at least one net passage vote. */
  questions: number;
  /** (question, passage) whose votes summed to zero: contradictions cancelled. */
  cancelled: number;
  /** Passage votes left out because their answer was made with other features than this code computes. */
  otherFeatures: number;
  /** Passage votes on a chunk missing from the question's latest answer (the corpus moved on). */
  notInLatestHits: number;
}

interface AnswerVotes {
  question: string;
  hits: FeedbackHit[];
  /** Order of answers of one question: the latest vote given on it. */
  latest: string;
}

/** Whether a line's hits carry exactly the features this code computes. */
const sameFeatures = (line: FeedbackExportLine) =>
  line.featureNames.length === FEATURE_NAMES.length &&
  FEATURE_NAMES.every((name) => line.featureNames.includes(name)) &&
  line.hits.every((hit) => FEATURE_NAMES.every((name) => Number.isFinite(hit.features[name])));

/**
 * Passage votes grouped by question (`normalizeQuestion` of what was searched) and tallied per
 * (question, chunk) to a net sign: ten identical votes count as one, and an up and a down vote
 * cancel. Each question keeps the hits of its latest voted answer (re-asking gives the same hits
 * unless the corpus changed; then the latest is what search does now).
 */
export function tallyFeedback(lines: readonly FeedbackExportLine[]): {
  questions: FeedbackQuestion[];
  tally: FeedbackTally;
} {
  const tally: FeedbackTally = {
    lines: lines.length,
    answerVotes: 0,
    passageVotes: 0,
    questions: 0,
    cancelled: 0,
    otherFeatures: 0,
    notInLatestHits: 0,
  };
  const answers = new Map<string, Map<string, AnswerVotes>>();
  const sums = new Map<string, Map<string, { sum: number; votes: number }>>();
  for (const line of lines) {
    if (line.target === 'answer') {
      tally.answerVotes += 1;
      continue;
    }
    tally.passageVotes += 1;
    if (!sameFeatures(line)) {
      tally.otherFeatures += 1;
      continue;
    }
    const searched = line.standaloneQuestion ?? line.question;
    const key = normalizeQuestion(searched);
    const byAnswer = answers.get(key) ?? new Map<string, AnswerVotes>();
    answers.set(key, byAnswer);
    const answer = byAnswer.get(line.answerId);
    if (!answer) byAnswer.set(line.answerId, { question: searched, hits: line.hits, latest: line.createdAt });
    else if (line.createdAt > answer.latest) answer.latest = line.createdAt;
    const chunks = sums.get(key) ?? new Map<string, { sum: number; votes: number }>();
    sums.set(key, chunks);
    const chunk = chunks.get(line.chunkId!) ?? { sum: 0, votes: 0 };
    chunks.set(line.chunkId!, { sum: chunk.sum + line.vote, votes: chunk.votes + 1 });
  }
  const questions: FeedbackQuestion[] = [];
  for (const [key, byAnswer] of answers) {
    const latest = [...byAnswer.values()].reduce((a, b) => (b.latest > a.latest ? b : a));
    const inHits = new Set(latest.hits.map((h) => h.chunkId));
    const votes = new Map<string, 1 | -1>();
    for (const [chunkId, { sum, votes: count }] of sums.get(key)!) {
      if (sum === 0) tally.cancelled += 1;
      else if (!inHits.has(chunkId)) tally.notInLatestHits += count;
      else votes.set(chunkId, sum > 0 ? 1 : -1);
    }
    if (votes.size === 0) continue;
    questions.push({
      question: latest.question,
      hits: [...latest.hits].sort((a, b) => a.rank - b.rank),
      votes,
    });
  }
  tally.questions = questions.length;
  return { questions, tally };
}

export interface FeedbackPairOptions {
  /**
   * Weight of a pair between a voted passage and an unvoted one (the vote against vote pairs
   * weigh 1): not voting says little, the reader may not have looked.
   */
  unvotedWeight?: number;
}

/**
 * The pairs one question's votes say: an up-voted passage above every down-voted one and every
 * unvoted one ranked below it; a down-voted passage below every other passage. Indices are into
 * `question.hits`.
 */
export function feedbackPairs(question: FeedbackQuestion, options: FeedbackPairOptions = {}): TrainingPair[] {
  const { unvotedWeight = 0.5 } = options;
  const vote = question.hits.map((h) => question.votes.get(h.chunkId) ?? 0);
  const pairs: TrainingPair[] = [];
  vote.forEach((a, i) =>
    vote.forEach((b, j) => {
      if (i === j) return;
      if (a === 1 && b === -1) pairs.push({ better: i, worse: j, weight: 1 });
      else if (a === 1 && b === 0 && j > i) pairs.push({ better: i, worse: j, weight: unvotedWeight });
      else if (a === 0 && b === -1) pairs.push({ better: i, worse: j, weight: unvotedWeight });
    }),
  );
  return pairs;
}

/** The features of a hit in `FEATURE_NAMES` order. */
export function featureRow(hit: FeedbackHit): number[] {
  return FEATURE_NAMES.map((name) => hit.features[name]);
}

/** The training groups of an export's passage votes: one per question with something to compare. */
export function feedbackTrainingGroups(
  questions: readonly FeedbackQuestion[],
  options: FeedbackPairOptions = {},
): PairwiseGroup[] {
  return questions
    .map((q) => ({ features: q.hits.map(featureRow), pairs: feedbackPairs(q, options) }))
    .filter((g) => g.pairs.length > 0);
}

/**
 * The most weight feedback pairs get in training, as a share of the judged pairs' weight
 * (tools/eval/train-reranker.ts `--feedback-cap`): on held-out SciFact train queries with
 * simulated votes, the cap with the best honest votes among those whose worst case (every voted
 * question's votes turned) stays within the gate's 0.005 (BENCHMARKS.md, "Reranker training with
 * feedback", tools/eval/feedback-bench.ts).
 */
export const DEFAULT_FEEDBACK_CAP = 0.03;

/** Largest drop of held-out nDCG@10 that feedback may cause before the trainer refuses its model. */
export const FEEDBACK_GATE_TOLERANCE = 0.005;

/**
 * The gate a model trained with feedback passes before it is written: its held-out nDCG@10 at
 * most `tolerance` below that of the model trained without.
 */
export function feedbackGate(
  heldOut: { withoutFeedback: number; withFeedback: number },
  tolerance = FEEDBACK_GATE_TOLERANCE,
): { pass: boolean; change: number } {
  const change = heldOut.withFeedback - heldOut.withoutFeedback;
  // A hair of float noise must not fail a model that scores the same.
  return { pass: change >= -tolerance - 1e-12, change };
}
