/**
 * Notion API requests per page of a sync, with and without the connector's run cache: the
 * Notion API emulator in-process on its default workspace, and what a FULL sync asks of the
 * connector (discover, then fetch every discovered page four at a time, as the worker does),
 * followed by an INCREMENTAL discovery with nothing changed. No Trove services are needed.
 * Writes its section of BENCHMARKS.md.
 *
 *   npm run bench:notion-requests
 */
import { randomBytes } from 'node:crypto';
import { SecretBox } from '@trove/config';
import {
  NOTION_SOURCE_TYPE,
  NotionConnector,
  type NotionSettings,
  type NotionSource,
} from '@trove/connector-notion';
import { SourceStatus } from '@trove/domain';
import { DEFAULT_IDS, defaultWorkspace, NotionEmulator } from '@trove/notion-emulator';
import { writeBenchmarkSections } from '@trove/tools-support';

const CONCURRENCY = 4;
const BLOCK_LISTING = 'GET /v1/blocks/:block_id/children';
const HEADING = '## Notion API requests per page';

interface Measured {
  pages: number;
  total: number;
  blocks: number;
  byRoute: Record<string, number>;
  incremental: number;
}

const secrets = new SecretBox(randomBytes(32).toString('base64'));

const scenarios: { name: string; notion: Omit<NotionSource['config'], 'token'> }[] = [
  {
    name: 'roots (Interview hub, Handbook, ADR database)',
    notion: {
      everything: false,
      rootPageIds: [DEFAULT_IDS.hub, DEFAULT_IDS.handbook],
      rootDatabaseIds: [DEFAULT_IDS.adrDatabase],
    },
  },
  { name: 'everything shared', notion: { everything: true, rootPageIds: [], rootDatabaseIds: [] } },
];

async function measure(
  emulator: NotionEmulator,
  config: NotionSettings,
  scenario: (typeof scenarios)[number],
) {
  const connector = new NotionConnector(secrets, config);
  const source: NotionSource = {
    id: `bench-${randomBytes(4).toString('hex')}`,
    projectId: 'bench',
    name: scenario.name,
    type: NOTION_SOURCE_TYPE,
    status: SourceStatus.ACTIVE,
    config: { ...scenario.notion, token: { sealed: secrets.encrypt(emulator.token), hint: 'ntn_…' } },
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  emulator.resetStats();
  const discovery = await connector.discover(source, { known: new Set() });
  const queue = discovery.items.map((item) => item.externalId);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        try {
          await connector.fetch(source, id);
        } catch {
          // a page gone between discovery and fetch: the sync skips it, and so does the bench
        }
      }
    }),
  );
  const full = { ...emulator.stats, byRoute: { ...emulator.stats.byRoute } };
  emulator.resetStats();
  await connector.discover(source, {
    since: discovery.watermark,
    known: new Set(discovery.items.map((item) => item.externalId)),
  });
  return {
    pages: discovery.items.length,
    total: full.total,
    blocks: full.byRoute[BLOCK_LISTING] ?? 0,
    byRoute: full.byRoute,
    incremental: emulator.stats.total,
  } satisfies Measured;
}

const perPage = (n: number, pages: number) => (n / pages).toFixed(2);

async function main() {
  const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
  const apiBaseUrl = await emulator.start();
  const cached: NotionSettings = { apiBaseUrl, requestsPerSecond: 10_000 };
  const uncached: NotionSettings = { ...cached, cacheTtlSeconds: 0 };
  const rows: string[] = [];
  const routes: string[] = [];
  try {
    for (const scenario of scenarios) {
      for (const [label, config] of [
        ['no cache (before)', uncached],
        ['run cache (after)', cached],
      ] as const) {
        const m = await measure(emulator, config, scenario);
        const other = m.total - m.blocks;
        console.log(`[bench-notion-requests] ${scenario.name}, ${label}:`, m);
        rows.push(
          `| ${scenario.name} | ${label} | ${m.pages} | ${m.total} | ${perPage(m.total, m.pages)} | ${other} | **${perPage(other, m.pages)}** | ${m.blocks} | ${perPage(m.blocks, m.pages)} | ${m.incremental} |`,
        );
        routes.push(
          `| ${scenario.name} | ${label} | ${Object.entries(m.byRoute)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([route, n]) => `\`${route}\` ${n}`)
            .join(', ')} |`,
        );
      }
    }
  } finally {
    await emulator.stop();
  }
  const section = `${HEADING}

\`tools/bench/bench-notion-requests.ts\`: the Notion API emulator
in-process on its default workspace; a FULL sync as the connector sees it (\`discover\`, then
\`fetch\` of every page, ${CONCURRENCY} at a time) counted at the emulator, then an INCREMENTAL
discovery with nothing changed. "No cache" is the connector with \`TROVE_NOTION_CACHE_TTL_SECONDS=0\`,
which makes the requests the code before the run cache made (discovery, then one new reader per
page fetch). Target: at most 1.3 requests per page besides block listings.

| source | cache | pages | requests | per page | besides block listings | per page | block listings | per page | INCREMENTAL, unchanged |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Requests by endpoint (FULL):

| source | cache | requests |
| --- | --- | --- |
${routes.join('\n')}
`;
  writeBenchmarkSections('npm run bench:notion-requests', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
