/**
 * Does feedback help the learned reranker, and can a burst of contradictory votes hurt it?
 * Simulated users on the whole SciFact eval project (`npm run eval -- --dataset beir_scifact`):
 *
 * 1. The train queries are split as `train-reranker.ts --holdout 3` splits them: every third is
 *    held out (never voted on, never trained on: the figure reported), the rest are the fit part.
 * 2. Some fit-part queries stand for users' questions without judgments: they are asked as `ask`
 *    asks them (HybridSearch with the committed learned reranker, the Answerer with the default
 *    settings, extractive mode, offline), and their judgments are left out of training in every
 *    arm. A simulated user votes each cited passage up when its document is relevant by the qrels
 *    and down when it is not, until `--votes` votes are given. The votes are written in the
 *    export format (.trove/eval/feedback-sim-*.jsonl), so `train-reranker.ts --feedback` reads
 *    the same files.
 * 3. A burst: the same votes inverted, once and three times over, by other keys, later.
 * 4. Models are fitted with no feedback, with the honest votes, with honest + burst, guarded
 *    (votes tallied per question and passage, their weight capped) and unguarded (every vote its
 *    own pairs, no cap), and across caps; each is scored by nDCG@10 on the held-out queries.
 *
 *   node -r @swc-node/register tools/eval/feedback-bench.ts --cache
 *
 * Writes the section "Reranker training with feedback (simulated votes, SciFact train)" of
 * BENCHMARKS.md. Test splits are never read.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Answerer, AnswerMode, type AnswerResult } from '@trove/answering';
import { openCatalog } from '@trove/catalog';
import { SegmenterTokenCounter } from '@trove/chunking';
import { answersSchema } from '@trove/config';
import {
  FEEDBACK_EXPORT_FORMAT,
  type FeedbackExportLine,
  type FeedbackHit,
  normalizeQuestion,
} from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { loadBeirDataset, percentile, sampleQueries, seededRandom } from '@trove/evaluation';
import {
  DEFAULT_FEEDBACK_CAP,
  FEATURE_NAMES,
  FEEDBACK_GATE_TOLERANCE,
  feedbackGate,
  type FeedbackQuestion,
  feedbackTrainingGroups,
  LearnedReranker,
  namedFeatures,
  parseFeedbackLines,
  tallyFeedback,
} from '@trove/reranking';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { datasetDir, sizeDefault, writeBenchmarkSections } from '@trove/tools-support';
import { evalProjectName, evalWorkerConfig, memoizedQueries, projectDocuments } from './eval-support';
import {
  fitModel,
  type FitSettings,
  isHeldOut,
  ndcgByQuery,
  type QueryGroup,
  recordedQueries,
  ROOT,
  scoreModel,
  toGroup,
} from './reranker-training';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'beir_scifact' },
    /** Passage votes the honest users give. */
    votes: {
      type: 'string',
      default: sizeDefault('node -r @swc-node/register tools/eval/feedback-bench.ts', '--votes'),
    },
    holdout: { type: 'string', default: '3' },
    caps: { type: 'string', default: '0.01,0.02,0.03,0.05,0.1,0.2,Infinity' },
    seed: { type: 'string', default: '7' },
    cache: { type: 'boolean', default: false },
    /** Write the BENCHMARKS.md section (off: print only). */
    write: { type: 'string', default: 'true' },
  },
});

const COMMAND = `node -r @swc-node/register tools/eval/feedback-bench.ts${args.cache ? ' --cache' : ''}`;
const HEADING = '## Reranker training with feedback (simulated votes, SciFact train)';
/** As the committed model.json: the fusion and candidates search runs, every query weighing the same. */
const RECORDING = {
  docs: undefined,
  queries: 2000,
  candidates: 30,
  fusion: 'convex:0.6',
  completeScores: true,
};
const FIT: Omit<FitSettings, 'feedback'> = { version: 'feedback-bench', l2: 0.001, equalQueries: true };
const OUT = join(ROOT, '.trove', 'eval');

/** Asks `questions` as `ask` does and votes the cited passages by the qrels, until `wanted` votes. */
interface Simulated {
  lines: FeedbackExportLine[];
  /** Questions asked, answered INSUFFICIENT_CONTEXT, answered with citations. */
  asked: number;
  refused: number;
  voted: number;
}

async function simulateVotes(
  questions: { text: string; relevant: Map<string, number> }[],
  wanted: number,
): Promise<Simulated> {
  const dir = datasetDir(args.dataset!);
  const projectName = evalProjectName(basename(dir), 'train', 0);
  const config = evalWorkerConfig(projectName, join(OUT, 'blobs'));
  const catalog = openCatalog(config.database);
  const es = createElasticsearchClient(config.elasticsearch.url);
  try {
    const project = (await catalog.projects.listProjects()).find(
      (p) => p.name === projectName && p.status === 'ACTIVE',
    );
    if (!project)
      throw new Error(
        `no eval project "${projectName}": run npm run eval -- --dataset ${args.dataset} first`,
      );
    const corpusIdOf = new Map(
      [...(await projectDocuments(catalog.documents, project.id)).values()].map((d) => [
        d.id,
        d.fileName.replace(/\.md$/, ''),
      ]),
    );
    const embedder = await memoizedQueries(
      createEmbeddingProvider(config.embedding),
      questions.map((q) => q.text),
    );
    const tokenCounter = new SegmenterTokenCounter();
    const index = new ChunkIndex(es, config.elasticsearch.indexPrefix, embedder.dimensions);
    // As the api builds it (RagRuntime): the committed learned reranker, features for the answer's record.
    const answerer = new Answerer({
      search: new HybridSearch(es, config.elasticsearch.indexPrefix, embedder, {
        reranker: new LearnedReranker(),
        rerankCandidates: RECORDING.candidates,
        countTokens: (text) => tokenCounter.count(text),
        candidateFeatures: namedFeatures,
      }),
      embedder,
      vectors: (chunkIds, signal) => index.vectorsByChunkIds(chunkIds, signal),
      tokenCounter,
      settings: answersSchema.parse({}),
    });
    const lines: FeedbackExportLine[] = [];
    let asked = 0;
    let voted = 0;
    let refused = 0;
    for (const question of questions) {
      if (lines.length >= wanted) break;
      asked += 1;
      // The passages the answer was built on, recorded as the api's answerHits records them.
      let hits: FeedbackHit[] = [];
      let answer: AnswerResult | undefined;
      for await (const event of answerer.stream({ projectId: project.id, question: question.text })) {
        if (event.type === 'retrieval') {
          hits = event.passages.map(({ hit }, i) => ({
            chunkId: hit.chunkId,
            documentId: hit.documentId,
            rank: i + 1,
            score: hit.score,
            features: hit.features ?? {},
          }));
        }
        if (event.type === 'done') answer = event.result;
      }
      if (!answer) throw new Error(`no answer to "${question.text}"`);
      if (answer.mode === AnswerMode.INSUFFICIENT_CONTEXT) refused += 1;
      const cited = [...new Map(answer.citations.map((c) => [c.chunkId, c])).values()];
      if (cited.length > 0) voted += 1;
      const answerId = `ans_sim${asked}`;
      for (const citation of cited) {
        const relevant = (question.relevant.get(corpusIdOf.get(citation.documentId)!) ?? 0) > 0;
        lines.push({
          format: FEEDBACK_EXPORT_FORMAT,
          id: `fbk_sim${lines.length + 1}`,
          answerId,
          projectId: project.id,
          question: question.text,
          mode: answer.mode,
          target: 'passage',
          chunkId: citation.chunkId,
          documentId: citation.documentId,
          vote: relevant ? 1 : -1,
          apiKeyId: 'sim-user',
          hits,
          featureNames: [...FEATURE_NAMES],
          createdAt: new Date(Date.UTC(2026, 10, 1) + lines.length * 60_000).toISOString(),
        });
      }
    }
    return { lines, asked, voted, refused };
  } finally {
    await catalog.lifecycle.close();
    await es.close();
  }
}

/** The simulated votes: asked again, or with `--cache` read back from the last run with the same settings. */
async function votesOf(pool: { text: string; relevant: Map<string, number> }[]): Promise<Simulated> {
  const settings = {
    dataset: args.dataset,
    votes: Number(args.votes),
    seed: Number(args.seed),
    holdout: args.holdout,
  };
  const meta = join(OUT, 'feedback-sim-honest.meta.json');
  const file = join(OUT, 'feedback-sim-honest.jsonl');
  if (args.cache && existsSync(meta) && existsSync(file)) {
    const saved = JSON.parse(readFileSync(meta, 'utf8')) as { settings: unknown } & Omit<Simulated, 'lines'>;
    if (JSON.stringify(saved.settings) === JSON.stringify(settings)) {
      console.log(`[feedback] simulated votes from ${file}`);
      return { ...saved, lines: parseFeedbackLines(readFileSync(file, 'utf8'), file) };
    }
  }
  const simulated = await simulateVotes(pool, settings.votes);
  mkdirSync(OUT, { recursive: true });
  const counts = { asked: simulated.asked, refused: simulated.refused, voted: simulated.voted };
  writeFileSync(meta, `${JSON.stringify({ settings, ...counts })}\n`);
  return simulated;
}

/** The same votes inverted, `times` over, each copy by another key and later than every honest vote. */
function invertedBurst(lines: FeedbackExportLine[], times: number): FeedbackExportLine[] {
  return Array.from({ length: times }, (_, copy) =>
    lines.map((line, i) => ({
      ...line,
      id: `fbk_burst${copy}_${i}`,
      vote: line.vote === 1 ? (-1 as const) : (1 as const),
      apiKeyId: `sim-burst-${copy}`,
      createdAt: new Date(Date.UTC(2026, 10, 2 + copy) + i * 1000).toISOString(),
    })),
  ).flat();
}

/** Every vote its own question, no tally: how feedback would count without the guard. */
function untallied(lines: FeedbackExportLine[]): FeedbackQuestion[] {
  return lines.flatMap((line) => tallyFeedback([line]).questions);
}

/**
 * The 95% interval of the mean change of per-query nDCG@10 from `before` to `after`, by a paired
 * bootstrap over the held-out queries (seeded: the same numbers every run).
 */
function changeInterval(before: number[], after: number[], rounds = 2000): [number, number] {
  const random = seededRandom(2026);
  const diffs = after.map((x, i) => x - before[i]);
  const means = Array.from({ length: rounds }, () => {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(random() * diffs.length)];
    return sum / diffs.length;
  });
  return [percentile(means, 2.5), percentile(means, 97.5)];
}

const round = (x: number) => x.toFixed(4);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`;

async function main() {
  const holdout = Number(args.holdout);
  const caps = args.caps!.split(',').map(Number);
  const dir = datasetDir(args.dataset!);
  const trainQueries = loadBeirDataset(dir, 'train').queries.slice(0, RECORDING.queries);
  const groups = (await recordedQueries(args.dataset!, { ...RECORDING, cache: args.cache! })).map(toGroup);
  const heldOut = groups.filter((_, i) => isHeldOut(i, holdout));
  const fitPart = trainQueries.filter((_, i) => !isHeldOut(i, holdout));

  // Users' questions: fit-part queries in a seeded order, asked until the votes are given.
  const pool = sampleQueries(fitPart, fitPart.length, Number(args.seed));
  const simulated = await votesOf(pool);
  const honest = simulated.lines;
  const burst1 = invertedBurst(honest, 1);
  const burst3 = invertedBurst(honest, 3);
  mkdirSync(OUT, { recursive: true });
  const files = { honest, 'burst-1x': [...honest, ...burst1], 'burst-3x': [...honest, ...burst3] };
  for (const [name, lines] of Object.entries(files)) {
    const file = join(OUT, `feedback-sim-${name}.jsonl`);
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    // Read back through the trainer's parser: the files are what `--feedback` takes.
    parseFeedbackLines(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, file);
  }
  const askedQuestions = new Set(pool.slice(0, simulated.asked).map((q) => normalizeQuestion(q.text)));
  // The asked questions stand for users' questions: their judgments stay out of every arm.
  const base: QueryGroup[] = groups.filter(
    (g, i) => !isHeldOut(i, holdout) && !askedQuestions.has(normalizeQuestion(g.query)),
  );
  const ups = honest.filter((l) => l.vote === 1).length;
  console.log(
    `[feedback] ${simulated.asked} questions asked (${simulated.refused} refused, ${simulated.voted} with citations), ${honest.length} votes (${ups} up), base ${base.length} judged queries, held out ${heldOut.length}`,
  );

  const without = fitModel(base, FIT);
  const { rerankedNdcg10: none, fusedNdcg10: fused } = await scoreModel(without, heldOut);
  const noneByQuery = await ndcgByQuery(without, heldOut);
  const arm = async (questions: FeedbackQuestion[], cap: number) => {
    const model = fitModel(base, { ...FIT, feedback: { groups: feedbackTrainingGroups(questions), cap } });
    const ndcg = (await scoreModel(model, heldOut)).rerankedNdcg10;
    const share = (model.training?.feedback as { share: number }).share;
    const [low, high] = changeInterval(noneByQuery, await ndcgByQuery(model, heldOut));
    return {
      ndcg,
      change: ndcg - none,
      low,
      interval: `${signed(low)} to ${signed(high)}`,
      share,
      gate: feedbackGate({ withoutFeedback: none, withFeedback: ndcg }).pass,
    };
  };
  const tallied = (lines: FeedbackExportLine[]) => tallyFeedback(lines).questions;

  const sweep: {
    cap: number;
    honest: Awaited<ReturnType<typeof arm>>;
    burst: Awaited<ReturnType<typeof arm>>;
  }[] = [];
  for (const cap of caps) {
    const honestArm = await arm(tallied(honest), cap);
    const burstArm = await arm(tallied(files['burst-3x']), cap);
    console.log(
      `[feedback] cap ${cap}: honest ${round(honestArm.ndcg)} (${signed(honestArm.change)}), burst 3× ${round(burstArm.ndcg)} (${signed(burstArm.change)})`,
    );
    sweep.push({ cap, honest: honestArm, burst: burstArm });
  }
  // The cap: the best honest votes among the caps whose worst case (every vote turned) stays within the gate.
  const chosen = sweep
    .filter((s) => s.burst.change >= -FEEDBACK_GATE_TOLERANCE)
    .reduce<(typeof sweep)[number] | undefined>(
      (a, b) => (!a || b.honest.ndcg > a.honest.ndcg ? b : a),
      undefined,
    );
  console.log(`[feedback] chosen cap ${chosen?.cap} (DEFAULT_FEEDBACK_CAP is ${DEFAULT_FEEDBACK_CAP})`);

  const cap = DEFAULT_FEEDBACK_CAP;
  const rows: [string, string, Awaited<ReturnType<typeof arm>>][] = [
    ['honest votes', `guarded (tally, cap ${cap})`, await arm(tallied(honest), cap)],
    [
      'honest + the same votes inverted (1×)',
      `guarded (tally, cap ${cap})`,
      await arm(tallied(files['burst-1x']), cap),
    ],
    ['honest + inverted 3×', `guarded (tally, cap ${cap})`, await arm(tallied(files['burst-3x']), cap)],
    [
      'honest + inverted 3×',
      'tally, no cap',
      await arm(tallied(files['burst-3x']), Number.POSITIVE_INFINITY),
    ],
    [
      'honest + inverted 3×',
      'unguarded (every vote counts, no cap)',
      await arm(untallied(files['burst-3x']), Number.POSITIVE_INFINITY),
    ],
    [
      'honest votes',
      'unguarded (every vote counts, no cap)',
      await arm(untallied(honest), Number.POSITIVE_INFINITY),
    ],
  ];
  for (const [feedback, guard, r] of rows) {
    console.log(
      `[feedback] ${feedback}, ${guard}: ${round(r.ndcg)} (${signed(r.change)}) gate ${r.gate ? 'passes' : 'refuses'}`,
    );
  }
  const tally3 = tallyFeedback(files['burst-3x']).tally;
  const tally1 = tallyFeedback(files['burst-1x']).tally;

  const body = `Simulated users on the whole SciFact corpus (the eval project of \`npm run eval -- --dataset beir_scifact\`), train split only:
every ${holdout === 3 ? 'third' : `${holdout}th`} train query is held out (${heldOut.length} queries: never voted on, never trained on; the nDCG@10 below is
over them, the learned reranker reordering the ${RECORDING.candidates} fused candidates, \`${RECORDING.fusion}\` fusion). The test split was not read.
${simulated.asked} other train queries stand for users' questions: each was asked as \`ask\` asks (HybridSearch with the committed
learned reranker, the Answerer with default settings, extractive mode; ${simulated.refused} answered INSUFFICIENT_CONTEXT), and a simulated
user voted every cited passage up when its document is relevant by the qrels, down when not: ${honest.length} votes (${ups} up) on
${simulated.voted} answers. Those questions' judgments are left out of training in every row, so the votes are the only thing known
about them. The remaining ${base.length} judged queries train every model (pairwise logistic regression, equal query weights, L2 0.001).
The burst is the same votes inverted by other keys, once (${burst1.length} votes) and three times over (${burst3.length} votes).

Guarded: votes are tallied per (question, passage) to a net sign (the 1× burst cancels ${tally1.cancelled} of them; the 3× burst turns
every one), and all feedback pairs together weigh at most the cap times the judged pairs' weight. The trainer's gate
(\`train-reranker.ts --feedback\`) refuses a model more than 0.005 below the model without feedback on held-out nDCG@10.

Held-out nDCG@10: fused order ${round(fused)}, reranker trained without feedback **${round(none)}**.

| feedback | counted | held-out nDCG@10 (change) | 95% interval of the change | feedback weight / judged | gate |
| --- | --- | --- | --- | --- | --- |
${rows.map(([feedback, guard, r]) => `| ${feedback} | ${guard} | ${round(r.ndcg)} (${signed(r.change)}) | ${r.interval} | ${r.share.toFixed(3)} | ${r.gate ? 'passes' : 'refuses'} |`).join('\n')}

The interval is a paired bootstrap over the ${heldOut.length} held-out queries (2,000 resamples). ${
    rows[0][2].low < 0
      ? "The honest votes' gain is within noise (its interval includes 0): 150 votes by the qrels add little to 448 judged queries."
      : "The honest votes' gain is outside the noise of the held-out set."
  } The guard is what the burst rows show: tallied and capped, a 3× contradictory burst ${rows[2][2].change >= -FEEDBACK_GATE_TOLERANCE ? `stays within 0.005 (${signed(rows[2][2].change)})` : `drops by more than 0.005 (${signed(rows[2][2].change)}: the gate refuses that model)`}; without the cap it costs
${signed(rows[3][2].change)}, and counting every vote with no cap ${signed(rows[4][2].change)}. Nothing here writes a model: \`model.json\` is unchanged.

**The cap** was chosen on these held-out train queries: held-out nDCG@10 by cap for the honest votes and for the worst
case, honest + inverted 3× (all ${tally3.questions} voted questions turned), both tallied. The default
(\`DEFAULT_FEEDBACK_CAP\`, ${DEFAULT_FEEDBACK_CAP}) is the cap with the best honest figure among those whose worst case stays
within 0.005 (here: ${chosen?.cap ?? 'none'}).

| cap | honest (change) | 95% interval | honest + inverted 3× (change) | 95% interval | weight / judged |
| --- | --- | --- | --- | --- | --- |
${sweep.map(({ cap, honest: h, burst: b }) => `| ${Number.isFinite(cap) ? cap : 'none'} | ${round(h.ndcg)} (${signed(h.change)}) | ${h.interval} | ${round(b.ndcg)} (${signed(b.change)}) | ${b.interval} | ${b.share.toFixed(3)} |`).join('\n')}
`;
  console.log(body);
  if (args.write === 'true') writeBenchmarkSections(COMMAND, `${HEADING}\n\n${body}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
