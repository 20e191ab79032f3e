/**
 * Every command that writes a section of BENCHMARKS.md, with what its figures depend on and the
 * options that size its workload. The writer puts the `measures` list under each section's stamp
 * (`Measures: …`) and a fingerprint of the default settings it runs with (`Settings: …`), and
 * tools/support/benchmarks-stale.spec.ts fails when a commit after the stamp changed one of the
 * files or the defaults differ now, so a figure can never outlive the code it measured unnoticed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  answersSchema,
  auditSchema,
  chunkingSchema,
  documentLimitsSchema,
  elasticsearchSchema,
  embeddingSchema,
  identitySchema,
  llmSchema,
  localLlmSchema,
  parsingSchema,
  rerankSchema,
  searchSchema,
  webhooksSchema,
  workerSettingsSchema,
} from '@trove/config';
import { readNotionSettings } from '@trove/connector-notion';

const ENV_SH = join(__dirname, '..', '..', 'infra', 'local', 'env.sh');

/**
 * What infra/local runs the benchmarks on: the pinned versions, threads, heap, niceness and node
 * count its env.sh defaults to (`ES_VERSION="${TROVE_ES_VERSION:-8.19.21}"`), and nothing else of
 * the file (paths, ports, helpers).
 */
export function localServicePins(
  script = readFileSync(ENV_SH, 'utf8'),
  service: 'search-and-ingest' | 'keycloak' | 'seaweedfs' = 'search-and-ingest',
): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const [, name, value] of script.matchAll(/^(\w+)="\$\{TROVE_\w+:-([^}]*)\}"/gm)) {
    // Keycloak runs only for sign-in (bench:people), SeaweedFS only for object storage
    // (bench:blob-store): their pins say nothing about search or ingest.
    const owner = name.startsWith('KEYCLOAK_')
      ? 'keycloak'
      : name.startsWith('SEAWEEDFS_')
        ? 'seaweedfs'
        : 'search-and-ingest';
    if (owner !== service) continue;
    if (/VERSION|THREADS|HEAP|NICE|NODES/.test(name)) pins[name] = value;
  }
  return pins;
}

/**
 * The settings a benchmark can run with, by name, as their *default values*: what the figures
 * depend on, rather than the file that declares them (libs/config/src/config.ts gains a setting
 * with most features, and a new webhook setting says nothing about a keyword eval).
 */
const SETTINGS_BLOCKS = {
  chunking: () => chunkingSchema.parse({}),
  embedding: () => embeddingSchema.parse({}),
  parsing: () => parsingSchema.parse({}),
  documentLimits: () => documentLimitsSchema.parse({}),
  worker: () => workerSettingsSchema.parse({}),
  elasticsearch: () => elasticsearchSchema.parse({}),
  search: () => searchSchema.parse({}),
  rerank: () => rerankSchema.parse({}),
  answers: () => answersSchema.parse({}),
  notion: () => readNotionSettings({}),
  webhooks: () => webhooksSchema.parse({}),
  identity: () => identitySchema.parse({}),
  audit: () => auditSchema.parse({}),
  llm: () => llmSchema.parse({}),
  localLlm: () => localLlmSchema.parse({}),
  localServices: () => localServicePins(),
  keycloak: () => localServicePins(undefined, 'keycloak'),
  seaweedfs: () => localServicePins(undefined, 'seaweedfs'),
};
export type SettingsBlock = keyof typeof SETTINGS_BLOCKS;

/** Parts of the product most benchmarks run through, as git pathspecs (folders or files). */
const INGEST = [
  'libs/parsing/src',
  'libs/chunking/src',
  'libs/embeddings/src',
  'libs/ingest-activities/src',
  'libs/workflows/src',
  'libs/storage/src',
  'libs/catalog/src',
  'apps/worker/src',
  // How Temporal dispatches the activities (task queue fairness).
  'infra/temporal/dynamic-config.yaml',
];
/** Search, with the Elasticsearch analysis plugin infra/local installs (the keyword leg's analysers). */
const SEARCH = [
  'libs/search/src',
  'libs/reranking/src',
  'libs/embeddings/src',
  'infra/local/es-analysis-plugin',
];
/** The settings whose defaults ingest runs with, and the local services' pins… */
const INGEST_SETTINGS: SettingsBlock[] = [
  'chunking',
  'embedding',
  'parsing',
  'documentLimits',
  'worker',
  'localServices',
];
/** …and those of search. */
const SEARCH_SETTINGS: SettingsBlock[] = ['elasticsearch', 'search', 'rerank', 'localServices'];
const SAME_RUN = ['tools/support/same-run-latency.ts', 'tools/support/local-worker-config.ts'];

export interface BenchmarkCommand {
  /** The command as its sections' stamps name it, before any option (environment variables aside). */
  command: string;
  /**
   * What the figures depend on: git pathspecs of the measured code, the command's own script and
   * the local services it runs on. A change to a unit spec (`*.spec.ts`) never counts.
   */
  measures: string[];
  /** The settings blocks whose default values the figures depend on (fingerprinted under the stamp). */
  settings: SettingsBlock[];
  /**
   * Options (`--name`) and environment variables (`NAME`) that size the workload, with the value
   * the command uses when they are not given (`undefined`: the whole data set). A section measured
   * with another value must say "(sizes changed" in its heading.
   */
  sizes: Record<string, string | undefined>;
}

export const BENCHMARK_COMMANDS: BenchmarkCommand[] = [
  {
    command: 'npm run bench:pipeline',
    measures: ['tools/bench/bench.ts', ...INGEST, ...SEARCH, ...SAME_RUN],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS],
    sizes: { BENCH_EN_QUERIES: '40', BENCH_RU_QUERIES: '40', BENCH_EN_DISTRACTORS: '40' },
  },
  {
    command: 'npm run bench:notion-requests',
    measures: [
      'tools/bench/bench-notion-requests.ts',
      'libs/connectors/notion/src',
      'apps/notion-emulator/src',
    ],
    settings: ['notion', 'localServices'],
    sizes: {},
  },
  {
    command: 'npm run bench:notion',
    measures: [
      'tools/bench/bench-notion.ts',
      'libs/connectors/notion/src',
      'apps/notion-emulator/src',
      'test/support/stack.ts',
      'apps/api/src',
      ...INGEST,
    ],
    settings: ['notion', 'webhooks', ...INGEST_SETTINGS],
    sizes: { BENCH_NOTION_RPS: '10', BENCH_WEBHOOK_SAMPLES: '10' },
  },
  {
    command: 'npm run bench:files',
    measures: ['tools/bench/bench-files.ts', 'libs/ocr/src', 'libs/mkdocs/src', ...INGEST],
    settings: INGEST_SETTINGS,
    sizes: {},
  },
  {
    command: 'npm run bench:catalog',
    measures: ['tools/bench/bench-catalog.ts', 'test/support/stack.ts', 'apps/api/src', ...INGEST],
    settings: INGEST_SETTINGS,
    sizes: { BENCH_PLAN_FILES: '5000', BENCH_SCIFACT_DOCS: '400', BENCH_PAGE_DOCS: '50000' },
  },
  {
    command: 'npm run bench:search-scale',
    measures: [
      'tools/bench/bench-search-scale.ts',
      'tools/bench/synthetic-chunks.ts',
      'tools/bench/index-memory.ts',
      'libs/search/src',
      'test/support/private-services.ts',
      ...SAME_RUN,
    ],
    settings: SEARCH_SETTINGS,
    sizes: {
      '--sizes': '100000,1000000',
      '--queries': '300',
      '--warmup': '30',
      '--segments': '1',
      // Unset: the smallest size, and every size.
      '--float-size': undefined,
      '--memory-sizes': undefined,
    },
  },
  {
    command: 'npm run bench:query-lane',
    measures: ['tools/bench/bench-query-lane.ts', 'test/support/stack.ts', ...INGEST, ...SEARCH],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS],
    sizes: { BENCH_QUERY_LANE_QUERIES: '70', BENCH_QUERY_LANE_DOCUMENTS: '300', BENCH_LOAD_STREAMS: '1' },
  },
  {
    command: 'npm run bench:scale',
    measures: [
      'tools/bench/bench-scale.ts',
      'tools/bench/bench-scale-stack.ts',
      'tools/bench/bench-scale-workload.ts',
      'tools/bench/bench-telemetry.ts',
      'tools/bench/cpu-usage.ts',
      'apps/api/src',
      'apps/embedder-stub/src',
      'libs/tracing/src',
      'libs/metrics/src',
      ...INGEST,
      ...SEARCH,
    ],
    // bench-scale.ts's DEFAULTS (bench-scale.spec.ts checks they agree).
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS],
    sizes: {
      '--workers': '1',
      '--small': '1500',
      '--abstracts': '400',
      '--stub-docs': '1500',
      '--stub-workers': '1,2',
      '--stub-slots': '12',
      '--queued': '5000',
      '--loads': 'archive,uploads',
      '--plan-files': '1000',
      '--search-docs': '200',
      '--queries': '100',
      '--rss-docs': '50000',
      '--rss-seconds': '300',
      '--telemetry-docs': '300',
      '--telemetry-stub-docs': '1000',
      '--telemetry-queries': '300',
      '--telemetry-rounds': '4',
      '--telemetry-on': 'traces,metrics',
      '--telemetry-embedders': 'model,stub',
    },
  },
  {
    command: 'npm run bench:ocr',
    measures: ['tools/bench/bench-ocr.ts', 'tools/bench/scanned-page.ts', 'libs/ocr/src', ...INGEST],
    settings: INGEST_SETTINGS,
    sizes: {},
  },
  {
    command: 'npm run bench:ocr-layout',
    // The OCR pool alone on page images; the PDF pages are drawn by the scanned-page renderer.
    measures: [
      'tools/bench/bench-ocr-layout.ts',
      'libs/ocr/src',
      'libs/parsing/src/pdf/scanned-pages.ts',
      'libs/parsing/src/pdf/page-scan.testing.ts',
    ],
    settings: [],
    sizes: {},
  },
  {
    command: 'npm run eval -- --answers',
    measures: [
      'tools/eval/eval-answers.ts',
      'tools/eval/answers-section.ts',
      'libs/answering/src',
      'libs/evaluation/src',
      'libs/evaluation/fixtures/answers',
      'samples/quickstart',
      'samples/handbook-site/docs',
      ...INGEST,
      ...SEARCH,
    ],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS, 'answers'],
    sizes: {},
  },
  {
    // The same set answered by the local model too (its own section): the model and its provider.
    command: 'npm run eval -- --answers --answers-llm',
    measures: [
      'tools/eval/eval-answers.ts',
      'tools/eval/answers-llm-section.ts',
      'libs/answering/src',
      'libs/llm/src',
      'libs/evaluation/src',
      'libs/evaluation/fixtures/answers',
      'samples/quickstart',
      'samples/handbook-site/docs',
      ...INGEST,
      ...SEARCH,
    ],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS, 'answers', 'localLlm'],
    sizes: {},
  },
  {
    command: 'npm run eval:keyword',
    measures: [
      'tools/eval/eval-keyword.ts',
      'libs/search/src',
      'libs/parsing/src',
      'libs/chunking/src',
      'libs/evaluation/src',
      'infra/local/es-analysis-plugin',
    ],
    settings: ['chunking', 'parsing', 'elasticsearch', 'search', 'localServices'],
    sizes: {},
  },
  {
    command: 'npm run eval',
    measures: [
      'tools/eval/eval.ts',
      'tools/eval/eval-support.ts',
      'libs/evaluation/src',
      ...INGEST,
      ...SEARCH,
      ...SAME_RUN,
    ],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS],
    sizes: { '--docs': undefined, '--queries': undefined },
  },
  {
    command: 'node -r @swc-node/register tools/eval/feedback-bench.ts',
    measures: [
      'tools/eval/feedback-bench.ts',
      'tools/eval/reranker-training.ts',
      'tools/eval/eval-support.ts',
      'libs/answering/src',
      'libs/evaluation/src',
      ...INGEST,
      ...SEARCH,
    ],
    settings: [...INGEST_SETTINGS, ...SEARCH_SETTINGS, 'answers'],
    sizes: { '--votes': '150' },
  },
  ...fairShare(),
  {
    command: 'npm run bench:large-documents',
    measures: [
      'tools/bench/bench-large-documents.ts',
      'tools/bench/bench-scale-stack.ts',
      'test/support/stack.ts',
      'test/support/large-files.ts',
      'apps/api/src',
      'apps/embedder-stub/src',
      ...INGEST,
    ],
    settings: INGEST_SETTINGS,
    // `-- --embedder local` writes a section of its own (the local model instead of the stub).
    sizes: {},
  },
  {
    command: 'npm run bench:memory',
    measures: [
      'tools/bench/bench-memory.ts',
      'tools/bench/scanned-page.ts',
      'tools/bench/bench-scale-stack.ts',
      'tools/bench/bench-scale-workload.ts',
      'apps/api/src',
      'apps/embedder-stub/src',
      'libs/ocr/src',
      'libs/connectors/git/src',
      'libs/connectors/folder/src',
      ...INGEST,
    ],
    settings: INGEST_SETTINGS,
    // `-- --embedder local` writes a section of its own (the local model instead of the stub).
    sizes: { '--minutes': '60', '--import-docs': '3000' },
  },
  {
    command: 'npm run bench:distributed',
    measures: [
      'tools/bench/bench-distributed.ts',
      'test/support/distributed-scenario.ts',
      'test/support/each-document-once.ts',
      'test/support/stack.ts',
      'test/support/private-services.ts',
      'test/support/object-store.ts',
      'apps/api/src',
      'apps/embedder-stub/src',
      'infra/local/up.sh',
      'infra/local/install-temporal-server.sh',
      ...INGEST,
      ...SEARCH,
    ],
    settings: [...INGEST_SETTINGS, 'elasticsearch', 'search', 'seaweedfs'],
    // `-- --embedder stub` writes a section of its own (the stub instead of the local model).
    sizes: { BENCH_DISTRIBUTED_DOCUMENTS: '2000' },
  },
  {
    command: 'npm run bench:web-assets',
    measures: [
      'tools/bench/bench-web-assets.ts',
      'apps/api/src/web',
      'apps/dashboard',
      'scripts/build-dashboard.sh',
      'test/support/browser.ts',
    ],
    settings: [],
    sizes: { BENCH_WEB_ROUNDS: '5' },
  },
  {
    command: 'npm run bench:people',
    measures: [
      'tools/bench/bench-people.ts',
      'test/support/identity-provider.ts',
      'test/support/stack.ts',
      'libs/identity/src',
      'libs/audit/src',
      'apps/api/src',
      'infra/local/keycloak',
    ],
    settings: ['identity', 'audit', 'keycloak', 'localServices'],
    sizes: { BENCH_SIGN_INS: '40', BENCH_REQUESTS: '400' },
  },
  {
    command: 'npm run bench:blob-store',
    measures: [
      'tools/bench/bench-blob-store.ts',
      'test/support/object-store.ts',
      'libs/storage/src',
      'infra/local/install-seaweedfs.sh',
    ],
    settings: ['seaweedfs'],
    sizes: { BENCH_BLOB_MB: '64', BENCH_BLOB_ROUNDS: '5' },
  },
  {
    command: 'npm run bench:llm',
    measures: ['tools/bench/bench-llm.ts', 'libs/llm/src', 'test/support/local-llm.ts'],
    settings: ['llm', 'localLlm'],
    // Unset: one and two threads.
    sizes: { TROVE_BENCH_LLM_THREADS: undefined },
  },
];

/**
 * `npm run bench:fair-share` runs two parts, each writing its own section, and `-- --parts <part>`
 * one of them: the embedder client alone (`client`), or two projects' imports through the real
 * api, worker and Temporal (`stack`). A run of both depends on what either part measures.
 */
function fairShare(): BenchmarkCommand[] {
  const client: Omit<BenchmarkCommand, 'command'> = {
    measures: ['tools/bench/bench-fair-share.ts', 'libs/embeddings/src', 'apps/embedder-stub/src'],
    settings: ['embedding', 'localServices'],
    sizes: {
      BENCH_FAIR_A_UNITS: '12',
      BENCH_FAIR_UNIT_REQUESTS: '4',
      BENCH_FAIR_B_REQUESTS: '2',
      BENCH_FAIR_ROUNDS: '3',
      BENCH_FAIR_DELAY_MS: '200',
      // Unset: the private stub embedder; `local` measures infra/local's instead.
      BENCH_FAIR_EMBEDDER: undefined,
    },
  };
  const stack: Omit<BenchmarkCommand, 'command'> = {
    measures: [
      'tools/bench/bench-fair-share.ts',
      'tools/bench/bench-fair-share-stack.ts',
      'tools/bench/bench-scale-stack.ts',
      'tools/bench/bench-scale-workload.ts',
      'apps/api/src',
      'apps/embedder-stub/src',
      ...INGEST,
    ],
    settings: [...INGEST_SETTINGS],
    sizes: {
      BENCH_FAIR_STACK_A_DOCS: '2000',
      BENCH_FAIR_STACK_A_IMPORTS: '4',
      BENCH_FAIR_STACK_B_DOCS: '20',
      BENCH_FAIR_STACK_ROUNDS: '3',
      BENCH_FAIR_DELAY_MS: '200',
      BENCH_FAIR_EMBEDDER: undefined,
    },
  };
  return [
    { command: 'npm run bench:fair-share -- --parts client', ...client },
    { command: 'npm run bench:fair-share -- --parts stack', ...stack },
    {
      command: 'npm run bench:fair-share',
      measures: [...new Set([...client.measures, ...stack.measures])],
      settings: [...new Set([...client.settings, ...stack.settings])],
      sizes: { ...client.sizes, ...stack.sizes },
    },
  ];
}

/** The words of a command line, environment assignments first (`A=1 npm run x -- --y 2`). */
function words(command: string): string[] {
  return command.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
}

/**
 * The registered command a stamp's command line runs: the longest whose words begin it after its
 * environment assignments (`npm run eval -- --answers` before `npm run eval`).
 */
export function benchmarkCommand(commandLine: string): BenchmarkCommand | undefined {
  const given = words(commandLine).filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  return BENCHMARK_COMMANDS.map((c) => ({ c, w: words(c.command) }))
    .filter(({ w }) => w.every((word, i) => given[i] === word))
    .sort((a, b) => b.w.length - a.w.length)[0]?.c;
}

/** The size options and variables a command line sets to something other than its command's default. */
export function changedSizes(commandLine: string, command: BenchmarkCommand): string[] {
  const given = words(commandLine);
  const changed: string[] = [];
  for (const [name, fallback] of Object.entries(command.sizes)) {
    let value: string | undefined;
    if (name.startsWith('--')) {
      const i = given.findIndex((w) => w === name || w.startsWith(`${name}=`));
      if (i >= 0) value = given[i].includes('=') ? given[i].slice(name.length + 1) : given[i + 1];
    } else {
      value = given.find((w) => w.startsWith(`${name}=`))?.slice(name.length + 1);
    }
    if (value !== undefined && value.replace(/^["']|["']$/g, '') !== fallback)
      changed.push(`${name} ${value}`);
  }
  return changed;
}

/** The line under a section's stamp that lists what its figures depend on. */
export function formatMeasures(command: BenchmarkCommand): string {
  return `Measures: ${command.measures.map((path) => `\`${path}\``).join(', ')}.`;
}

/**
 * Each settings block's fingerprint: the first 8 hex digits of the SHA-256 of its default values
 * (the schema parsed from nothing), in the command's order.
 */
export function settingsFingerprints(command: BenchmarkCommand): [SettingsBlock, string][] {
  return [...new Set(command.settings)].map((name) => [
    name,
    createHash('sha256').update(JSON.stringify(SETTINGS_BLOCKS[name]())).digest('hex').slice(0, 8),
  ]);
}

/** The line under a section's stamp that fingerprints the default settings its figures were taken with. */
export function formatSettings(command: BenchmarkCommand): string {
  const fingerprints = settingsFingerprints(command).map(([name, hash]) => `\`${name}\` ${hash}`);
  // A command that runs with none of the configured settings (the OCR pool alone) says so.
  return `Settings: ${fingerprints.join(', ') || 'none'}.`;
}

/** The blocks and fingerprints of a `Settings:` line, or undefined when the text has none. */
export function parseSettings(text: string): Map<string, string> | undefined {
  const line = text.split('\n').find((l) => l.startsWith('Settings: '));
  return line ? new Map([...line.matchAll(/`([^`]+)` ([0-9a-f]+)/g)].map((m) => [m[1], m[2]])) : undefined;
}

/**
 * The settings blocks whose defaults differ from those a section's `Settings:` line fingerprints
 * (`search 1a2b3c4d → 5e6f7a8b`), or that it does not fingerprint at all.
 */
export function changedSettings(recorded: Map<string, string>, command: BenchmarkCommand): string[] {
  return settingsFingerprints(command)
    .filter(([name, hash]) => recorded.get(name) !== hash)
    .map(([name, hash]) => `${name} ${recorded.get(name) ?? 'not fingerprinted'} → ${hash}`);
}

/** The paths of a `Measures:` line, or undefined when the text has none. */
export function parseMeasures(text: string): string[] | undefined {
  const line = text.split('\n').find((l) => l.startsWith('Measures: '));
  return line ? [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]) : undefined;
}

/**
 * The default of a size option or variable of a registered command: the scripts read their
 * defaults here, so the staleness check and the command agree on them.
 */
export function sizeDefault(command: string, name: string): string {
  const value = BENCHMARK_COMMANDS.find((c) => c.command === command)?.sizes[name];
  if (value === undefined)
    throw new Error(`${command} has no size ${name} with a default in benchmark-commands.ts`);
  return value;
}
