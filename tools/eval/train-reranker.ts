/**
 * Trains the learned reranker (libs/reranking/src/learned/model.json) on the TRAIN splits only:
 * each train query runs through the real HybridSearch on an eval project built by
 * `npm run eval -- --dataset <name> --split train --docs N --queries M`, the fused top candidates
 * are recorded with their features, labelled by the split's qrels (a chunk is relevant when its
 * document is), and a pairwise logistic regression is fitted over them.
 *
 *   node -r @swc-node/register tools/eval/train-reranker.ts --docs 400 --queries 250
 *   node -r @swc-node/register tools/eval/train-reranker.ts --docs all --queries 2000   (whole corpora)
 *
 * `--cache` keeps the recorded candidates in .trove/eval/ and reuses them (features are computed
 * again each time, so feature work needs no search). `--holdout F` fits on the other train
 * queries and also reports nDCG@10 on every 1/F-th train query, left out of the fit: the figure to
 * choose features and settings by, since the test splits are never looked at here.
 *
 * The queries of the retrieval gate's slices (test/integration/search/retrieval-slices.json) are
 * never fitted on: the gate measures the model on them, so they are dropped from the train splits
 * before anything else (`--exclude-slices none` keeps them, `--exclude-slices <file>` reads another).
 *
 * `--feedback votes.jsonl[,more.jsonl]` (the export of `trove feedback export`, docs/ask.md) adds
 * the passage votes as pairs: tallied per (question, passage) to a net sign, their total weight
 * capped at `--feedback-cap` of the judged pairs' weight. The model is fitted with and without
 * them and is written only when its held-out nDCG@10 (every `--holdout`-th train query, 3 when not
 * given) is at most 0.005 below the model without feedback, on every data set; otherwise both
 * figures are printed, model.json is left as it is and the exit code is 3. Without `--holdout`,
 * the model written after the gate is fitted on every train query.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeQuestion } from '@trove/domain';
import type { RetrievalSlices } from '@trove/evaluation';
import {
  DEFAULT_FEEDBACK_CAP,
  FEATURE_NAMES,
  feedbackGate,
  type FeedbackQuestion,
  feedbackTrainingGroups,
  type LinearModel,
  parseFeedbackLines,
  tallyFeedback,
} from '@trove/reranking';
import {
  type FitSettings,
  fitModel,
  isHeldOut,
  type QueryGroup,
  recordedQueries,
  ROOT,
  scoreModel,
  toGroup,
} from './reranker-training';

const MODEL_FILE = `${ROOT}/libs/reranking/src/learned/model.json`;
const SLICES_FILE = join(ROOT, 'test', 'integration', 'search', 'retrieval-slices.json');
/** The held-out share the feedback gate uses when `--holdout` is not given. */
const GATE_HOLDOUT = 3;
/** Exit code of a model refused by the feedback gate. */
const GATE_REFUSED = 3;

const { values: args } = parseArgs({
  options: {
    datasets: { type: 'string', default: 'beir_scifact,ru_rumeddanet' },
    docs: { type: 'string', default: '400' },
    queries: { type: 'string', default: '250' },
    /** Fused candidates recorded per query: more negatives than search reranks by default. */
    candidates: { type: 'string', default: '50' },
    version: { type: 'string', default: 'v1' },
    out: { type: 'string', default: MODEL_FILE },
    cache: { type: 'boolean', default: false },
    holdout: { type: 'string', default: '0' },
    'equal-queries': { type: 'boolean', default: false },
    /** The fusion whose candidates the model learns to reorder (as `npm run eval -- --fusions`): it must be the one search uses. */
    fusion: { type: 'string', default: 'rrf:60' },
    l2: { type: 'string', default: '0.001' },
    /** Score every candidate in both legs before convex fusion (as search does by default); `false` as before. */
    'complete-scores': { type: 'string', default: 'true' },
    /** Feedback exports (JSON Lines), comma-separated. */
    feedback: { type: 'string' },
    /** The most weight feedback pairs may have, as a share of the judged pairs' weight. */
    'feedback-cap': { type: 'string', default: String(DEFAULT_FEEDBACK_CAP) },
    /** The retrieval gate's slices, whose queries are left out of the fit (`none`: fit on them too). */
    'exclude-slices': { type: 'string', default: SLICES_FILE },
  },
});

/** Per data set, the ids of the train queries the retrieval gate measures the model on. */
function gateQueries(file: string): Map<string, Set<string>> {
  const excluded = new Map<string, Set<string>>();
  if (file === 'none') return excluded;
  const { slices } = JSON.parse(readFileSync(file, 'utf8')) as RetrievalSlices;
  for (const slice of slices.filter((s) => s.split === 'train')) {
    const ids = excluded.get(slice.dataset) ?? new Set<string>();
    slice.queries.forEach((q) => ids.add(q.id));
    excluded.set(slice.dataset, ids);
  }
  return excluded;
}
const excluded = gateQueries(args['exclude-slices']!);

if (!['true', 'false'].includes(args['complete-scores']!)) {
  throw new Error('--complete-scores must be true or false');
}
const completeScores = args['complete-scores'] === 'true';

const datasets = args.datasets!.split(',').map((d) => d.trim());
// `all`: the whole corpus, the eval project that `npm run eval` builds without --docs.
const docs = args.docs === 'all' ? undefined : Number(args.docs);
const queries = Number(args.queries);
const candidates = Number(args.candidates);
const holdout = Number(args.holdout);
const feedbackCap = Number(args['feedback-cap']);
if (!(feedbackCap >= 0)) throw new Error('--feedback-cap must be a number ≥ 0');

const command = `node -r @swc-node/register tools/eval/train-reranker.ts --datasets ${datasets.join(',')} --docs ${docs ?? 'all'} --queries ${queries} --candidates ${candidates} --fusion ${args.fusion}${completeScores ? '' : ' --complete-scores false'}${args['equal-queries'] ? ' --equal-queries' : ''} --l2 ${args.l2} --version ${args.version}${args['exclude-slices'] === SLICES_FILE ? '' : ` --exclude-slices ${args['exclude-slices']}`}${args.feedback ? ` --feedback ${args.feedback} --feedback-cap ${feedbackCap}` : ''}`;

const settings = (feedback?: FeedbackQuestion[]): FitSettings => ({
  version: args.version!,
  l2: Number(args.l2),
  equalQueries: args['equal-queries']!,
  ...(feedback ? { feedback: { groups: feedbackTrainingGroups(feedback), cap: feedbackCap } } : {}),
});

const provenance = (split: number) => ({
  command,
  splits: datasets.map(
    (d) =>
      `${d} train (first ${queries} queries, ${docs ? `${docs}-document subset, seed 42` : 'whole corpus'}${split > 1 ? `, every ${split}th held out` : ''}${excluded.get(d)?.size ? `, less the ${excluded.get(d)!.size} queries of the retrieval gate's slices` : ''})`,
  ),
});

/** The groups of every data set that `split` keeps in (false) or holds out (true). */
function part(byDataset: Map<string, QueryGroup[]>, split: number, heldOut: boolean): QueryGroup[] {
  return [...byDataset.values()].flatMap((groups) =>
    groups.filter((_, i) => isHeldOut(i, split) === heldOut),
  );
}

async function report(model: LinearModel, byDataset: Map<string, QueryGroup[]>, split: number) {
  for (const [dataset, groups] of byDataset) {
    console.log(
      `[train] ${dataset} in-sample:`,
      await scoreModel(
        model,
        groups.filter((_, i) => !isHeldOut(i, split)),
      ),
    );
    if (split > 1) {
      console.log(
        `[train] ${dataset} held out (1/${split}):`,
        await scoreModel(
          model,
          groups.filter((_, i) => isHeldOut(i, split)),
        ),
      );
    }
  }
}

/**
 * Fits with and without the feedback on the `split` and compares held-out nDCG@10 per data set.
 * Feedback on a held-out question is left out of this fit: it would grade the model on its own votes.
 */
async function gate(byDataset: Map<string, QueryGroup[]>, split: number, feedback: FeedbackQuestion[]) {
  const heldOutQuestions = new Set(part(byDataset, split, true).map((g) => normalizeQuestion(g.query)));
  const usable = feedback.filter((q) => !heldOutQuestions.has(normalizeQuestion(q.question)));
  if (usable.length < feedback.length) {
    console.log(
      `[train] gate: ${feedback.length - usable.length} voted questions are held-out queries, left out of the gate's fit`,
    );
  }
  const fit = part(byDataset, split, false);
  const without = fitModel(fit, settings());
  const withFeedback = fitModel(fit, settings(usable), provenance(split));
  console.log('[train] gate: feedback', withFeedback.training?.feedback);
  let pass = true;
  for (const [dataset, groups] of byDataset) {
    const heldOut = groups.filter((_, i) => isHeldOut(i, split));
    const before = (await scoreModel(without, heldOut)).rerankedNdcg10;
    const after = (await scoreModel(withFeedback, heldOut)).rerankedNdcg10;
    const verdict = feedbackGate({ withoutFeedback: before, withFeedback: after });
    pass &&= verdict.pass;
    console.log(
      `[train] gate ${dataset} held out (1/${split}): nDCG@10 without feedback ${before.toFixed(4)}, with ${after.toFixed(4)} (${verdict.change >= 0 ? '+' : ''}${verdict.change.toFixed(4)})${verdict.pass ? '' : ' REFUSED'}`,
    );
  }
  return { pass, withFeedback };
}

async function main() {
  const recording = { docs, queries, candidates, fusion: args.fusion!, completeScores, cache: args.cache! };
  const byDataset = new Map<string, QueryGroup[]>();
  for (const dataset of datasets) {
    const recorded = await recordedQueries(dataset, recording);
    const gate = excluded.get(dataset) ?? new Set<string>();
    if (gate.size > 0 && recorded.some((r) => r.id === undefined)) {
      throw new Error(
        `${dataset}: the recorded candidates have no query ids; record them again (without --cache)`,
      );
    }
    const kept = recorded.filter((r) => !gate.has(r.id!));
    console.log(
      `[train] ${dataset}: ${recorded.length - kept.length} queries of the retrieval gate's slices left out`,
    );
    byDataset.set(dataset, kept.map(toGroup));
  }
  let model: LinearModel;
  if (args.feedback) {
    const lines = args.feedback
      .split(',')
      .flatMap((file) => parseFeedbackLines(readFileSync(file.trim(), 'utf8'), file));
    const { questions, tally } = tallyFeedback(lines);
    console.log('[train] feedback:', tally);
    const split = holdout > 1 ? holdout : GATE_HOLDOUT;
    const gated = await gate(byDataset, split, questions);
    if (!gated.pass) {
      console.error(
        `[train] refused: feedback lowers held-out nDCG@10 by more than 0.005; ${args.out} left as it is`,
      );
      process.exit(GATE_REFUSED);
    }
    model =
      holdout > 1
        ? gated.withFeedback
        : fitModel(part(byDataset, 0, false), settings(questions), provenance(0));
  } else {
    model = fitModel(part(byDataset, holdout, false), settings(), provenance(holdout));
  }
  await report(model, byDataset, holdout);
  console.log('[train] weights:', Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, model.weights[i]])));
  writeFileSync(args.out!, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`[train] wrote ${args.out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
