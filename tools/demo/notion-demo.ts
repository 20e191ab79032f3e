/**
 * Part of the quick start: adds a Notion source and syncs it. Without NOTION_TOKEN it syncs the
 * "Onboarding" subtree of the bundled Notion API emulator's demo workspace (started by
 * quickstart.sh); with NOTION_TOKEN (and NOTION_ROOTS, comma-separated page/database ids or URLs,
 * optional) it syncs a real workspace. It exits non-zero, naming each failed check, unless the sync
 * COMPLETED with every page (for the demo workspace: exactly the pages the Onboarding subtree
 * reaches) and the search finds pages with their Notion links — for the demo workspace, the page
 * its query is about in the top 3 (a real workspace's pages are not known here).
 */
import { DEFAULT_IDS, DEFAULT_TOKEN, defaultWorkspace } from '@trove/notion-emulator';
import { base, gql } from './demo-client';
import {
  DemoChecks,
  notionSubtree,
  rankProblems,
  searchProblems,
  syncProblems,
  type SyncRunResult,
} from './demo-checks';

type Run = SyncRunResult & { progress: Record<string, number> };

async function main() {
  const checks = new DemoChecks('Notion demo');
  const real = Boolean(process.env.NOTION_TOKEN);
  const projectName = real ? 'My Notion workspace' : 'Notion demo (emulated)';
  const { projects } = await gql<{ projects: { id: string; name: string }[] }>('{ projects { id name } }');
  const projectId =
    projects.find((p) => p.name === projectName)?.id ??
    (
      await gql<{ createProject: { id: string } }>(
        'mutation($n: String!) { createProject(input: {name: $n}) { id } }',
        {
          n: projectName,
        },
      )
    ).createProject.id;
  const { sources } = await gql<{ sources: { id: string }[] }>(
    'query($p: ID!) { sources(projectId: $p) { id } }',
    {
      p: projectId,
    },
  );
  const sourceId =
    sources[0]?.id ??
    (
      await gql<{ addSource: { id: string } }>(
        'mutation($i: AddSourceInput!) { addSource(input: $i) { id } }',
        {
          i: {
            projectId,
            type: 'NOTION',
            name: real ? 'Notion' : 'Demo workspace (emulator)',
            config: {
              token: process.env.NOTION_TOKEN ?? DEFAULT_TOKEN,
              rootPageIds: real
                ? (process.env.NOTION_ROOTS ?? '').split(',').filter(Boolean)
                : [DEFAULT_IDS.onboarding],
            },
          },
        },
      )
    ).addSource.id;

  if (sources[0]) {
    // The token is sealed with this installation's TROVE_SECRET_KEY: set it again, so a source
    // made by another checkout (another key) still syncs.
    await gql('mutation($id: ID!, $t: String!) { updateSource(id: $id, input: { token: $t }) { id } }', {
      id: sourceId,
      t: process.env.NOTION_TOKEN ?? DEFAULT_TOKEN,
    });
  }

  console.log(`\nNotion sync (${real ? 'your workspace' : 'emulated demo workspace, Onboarding subtree'})…`);
  const { syncSource } = await gql<{ syncSource: { id: string } }>(
    'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
    { id: sourceId },
  );
  let run: Run;
  const started = Date.now();
  for (;;) {
    run = (
      await gql<{ syncRun: Run }>(
        'query($id: ID!) { syncRun(id: $id) { status error { message } progress { pagesSeen pagesIngested pagesUnchanged pagesDeleted pagesSkipped pagesFailed chunksEmbedded chunksReused } } }',
        { id: syncSource.id },
      )
    ).syncRun;
    if (run.status !== 'RUNNING') break;
    if (Date.now() - started > 600_000) throw new Error('the Notion sync did not finish within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const p = run.progress;
  console.log(
    `  ${run.status} in ${Math.round((Date.now() - started) / 1000)} s: ${p.pagesSeen} pages, ${p.pagesIngested} ingested, ` +
      `${p.pagesUnchanged} unchanged, ${p.pagesDeleted} removed, ${p.pagesSkipped} skipped; ` +
      `${p.chunksEmbedded} chunks embedded, ${p.chunksReused} reused`,
  );
  // The emulator serves its default workspace: what the Onboarding subtree reaches is known.
  const expected = real ? {} : notionSubtree(defaultWorkspace(), DEFAULT_IDS.onboarding);
  checks.add(syncProblems(real ? 'the Notion' : 'the demo workspace (Onboarding)', run, expected));
  const query = real ? 'onboarding' : 'who do I call when on call?';
  /** The demo workspace's page the query is about. */
  const expectedTitle = 'On-call basics';
  const { search } = await gql<{
    search: { hits: { title: string; text: string; citationUrl: string | null }[] };
  }>('query($i: SearchInput!) { search(input: $i) { hits { title text citationUrl } } }', {
    i: { projectId, query, limit: 3, mode: 'HYBRID' },
  });
  for (const [i, hit] of search.hits.entries()) {
    console.log(`  ${i + 1}. ${hit.title}: ${hit.text.replace(/\s+/g, ' ').slice(0, 100)}`);
    if (hit.citationUrl) console.log(`     ${hit.citationUrl}`);
  }
  checks.add(searchProblems(query, search.hits));
  if (!real) {
    checks.add(
      rankProblems(query, search.hits, {
        name: `the page "${expectedTitle}"`,
        is: (hit) => hit.title === expectedTitle,
      }),
    );
  }
  console.log(`  Webhook URL for Notion: ${base}/webhooks/notion/${sourceId}`);
  checks.report();
}

main().catch((error) => {
  console.error(`notion demo failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
