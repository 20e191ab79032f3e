/**
 * The Notion scenario of `npm run bench`: the real api and worker (as processes) against the
 * Notion API emulator's 247-page workspace. Appends its section to BENCHMARKS.md.
 */
import { createNotionClient } from '@trove/connector-notion';
import { defaultWorkspace } from '@trove/notion-emulator';
import { NotionEmulator } from '@trove/notion-emulator';
import { expectEventually, TroveStack } from '@trove/test-support';
import { sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:notion', name));
const RPS = size('BENCH_NOTION_RPS');
const WEBHOOK_SAMPLES = size('BENCH_WEBHOOK_SAMPLES');
const RUN =
  'status error { message } progress { pagesSeen pagesIngested pagesUnchanged pagesDeleted pagesSkipped apiCalls chunksEmbedded chunksReused }';

interface Run {
  status: string;
  error: { message: string } | null;
  progress: Record<string, number>;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: RPS, burst: RPS });
  const emulatorUrl = await emulator.start();
  const stack = new TroveStack({
    TROVE_NOTION_API_URL: emulatorUrl,
    TROVE_NOTION_REQUESTS_PER_SECOND: String(RPS),
    TROVE_CHUNK_TARGET_TOKENS: '400',
    TROVE_CHUNK_OVERLAP_TOKENS: '50',
    TROVE_EMBEDDING_BATCH_SIZE: '16',
  });
  await stack.start();
  try {
    const projectId = await stack.createProject('Notion bench');
    const { id: sourceId } = await stack.addSource({
      projectId,
      name: 'Emulated workspace',
      type: 'NOTION',
      config: { token: emulator.token },
    });
    const sync = async (mode: 'FULL' | 'INCREMENTAL') => {
      emulator.resetStats();
      const started = Date.now();
      const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
        'mutation($id: ID!, $m: SyncMode!) { syncSource(id: $id, mode: $m) { id } }',
        { id: sourceId, m: mode },
      );
      const run = await expectEventually(
        async () => {
          const { syncRun } = await stack.query<{ syncRun: Run }>(
            `query($id: ID!) { syncRun(id: $id) { ${RUN} } }`,
            {
              id: syncSource.id,
            },
          );
          if (syncRun.status === 'RUNNING') throw new Error('running');
          return syncRun;
        },
        { timeoutMs: 1_800_000, intervalMs: 1000 },
      );
      if (run.status !== 'COMPLETED') throw new Error(`sync ${mode} ${run.status}: ${run.error?.message}`);
      return {
        run,
        ms: Date.now() - started,
        calls: emulator.stats.total,
        limited: emulator.stats.rateLimited,
      };
    };

    console.log('[bench-notion] FULL sync of the whole workspace…');
    const full = await sync('FULL');
    console.log(`[bench-notion] FULL ${full.ms} ms, ${full.calls} API calls`);
    const idle = await sync('INCREMENTAL');

    // One paragraph edited on one page.
    const search = async (query: string) =>
      (
        await stack.query<{ search: { hits: { text: string }[] } }>(
          'query($i: SearchInput!) { search(input: $i) { hits { text } } }',
          { i: { projectId, query, limit: 3, mode: 'KEYWORD' } },
        )
      ).search.hits;
    const pages = await pagesWithParagraphs(emulatorUrl, emulator.token, WEBHOOK_SAMPLES + 1);
    emulator.editBlockText(pages[0].blockId, 'Benchmark edit: the standup moved to 09:45 on Tuesdays.');
    const edit = await sync('INCREMENTAL');

    // Webhook delivered → change searchable.
    const hook = `${stack.url}/webhooks/notion/${sourceId}`;
    await emulator.sendVerificationRequest(hook);
    const latencies: number[] = [];
    for (const [i, page] of pages.slice(1).entries()) {
      const marker = `webhookmarker${i}x${Date.now().toString(36)}`;
      emulator.editBlockText(page.blockId, `Latest note ${marker} for the bench.`);
      const started = Date.now();
      await emulator.deliverWebhook(hook, { type: 'page.content_updated', entityId: page.pageId });
      await expectEventually(
        async () => {
          if (!(await search(marker)).some((h) => h.text.includes(marker))) throw new Error('not yet');
        },
        { timeoutMs: 120_000, intervalMs: 100 },
      );
      latencies.push(Date.now() - started);
    }

    const row = (label: string, r: Awaited<ReturnType<typeof sync>>) =>
      `| ${label} | ${r.ms} | ${r.calls} | ${r.limited} | ${r.run.progress.pagesSeen} | ${r.run.progress.pagesIngested} | ${r.run.progress.chunksEmbedded} | ${r.run.progress.chunksReused} |`;
    const section = `## Notion sync (emulated Notion API)

\`tools/bench/bench-notion.ts\`: the api and worker as processes, the Notion API emulator serving its
247-page Russian/English workspace (everything shared with the integration), both the emulator's
limit and Trove's pacing at ${RPS} requests/s. Notion's own servers can't be reached here, so API
latency is the emulator's (loopback), not Notion's.

| sync | wall ms | Notion API calls | 429s | pages seen | pages ingested | chunks embedded | chunks reused |
| --- | --- | --- | --- | --- | --- | --- | --- |
${row('FULL, first', full)}
${row('INCREMENTAL, nothing changed', idle)}
${row('INCREMENTAL, one paragraph edited', edit)}

Webhook delivered → change searchable (debounce 2 s included), ${latencies.length} edits one after another:
p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms.
`;
    writeBenchmarkSections('npm run bench:notion', section);
    console.log(section);
  } finally {
    await stack.stop();
    await emulator.stop();
  }
}

/** Pages whose first top-level block is a paragraph, to edit in place (read through the paced SDK client). */
async function pagesWithParagraphs(url: string, token: string, count: number) {
  const client = createNotionClient({ token, baseUrl: url, requestsPerSecond: RPS });
  const found: { pageId: string; blockId: string }[] = [];
  const search = await client.search({ filter: { property: 'object', value: 'page' }, page_size: 100 });
  for (const page of search.results) {
    const children = await client.blocks.children.list({ block_id: page.id });
    const paragraph = children.results.find((b) => 'type' in b && b.type === 'paragraph');
    if (paragraph) found.push({ pageId: page.id, blockId: paragraph.id });
    if (found.length === count) break;
  }
  return found;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
