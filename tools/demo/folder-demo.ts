/**
 * The quick start's folder demo: imports samples/handbook-site (a small MkDocs project) as a
 * folder source, syncs it, and prints search hits with their citation links into the built site.
 * It exits non-zero, naming each failed check, unless the sync COMPLETED with every page of the
 * site and each search ranks the handbook page it is about in its top 3, with its link.
 */
import { join } from 'node:path';
import { gql } from './demo-client';
import { DemoChecks, mkdocsPages, rankProblems, searchProblems, syncProblems } from './demo-checks';

const SITE = join(__dirname, '..', '..', 'samples', 'handbook-site');
const PROJECT_NAME = 'Quickstart sample';
const SITE_URL = 'https://handbook.example.com/';

/** Each demo search and the handbook page it is about (its published path): it must rank in the top 3. */
const DEMO_SEARCHES = [
  { query: 'how do I restore a database backup?', page: 'operations/backups/' },
  { query: 'как откатить релиз', page: 'ru/deploy/' },
  { query: '混合搜索怎么合并结果', page: 'zh/search/' },
];

interface Run {
  status: string;
  error: { message: string } | null;
  progress: { pagesSeen: number; pagesIngested: number; pagesUnchanged: number; pagesFailed: number };
}

async function main() {
  const checks = new DemoChecks('folder demo');
  const { projects } = await gql<{ projects: { id: string; name: string }[] }>('{ projects { id name } }');
  const projectId = projects.find((p) => p.name === PROJECT_NAME)?.id;
  if (!projectId) throw new Error(`run tools/demo/quickstart-demo.ts first (project "${PROJECT_NAME}")`);

  const { sources } = await gql<{
    sources: { id: string; name: string; config: { path?: string } | null }[];
  }>('query($p: ID!) { sources(projectId: $p) { id name config } }', { p: projectId });
  const existing = sources.find((s) => s.name === 'Team handbook (MkDocs)');
  // A source made from another checkout of the repository (moved or cloned again) reads a folder
  // that is no longer this one: replace it rather than sync a path outside TROVE_FOLDER_ROOTS.
  if (existing && existing.config?.path !== SITE) {
    await gql('mutation($id: ID!) { removeSource(id: $id) }', { id: existing.id });
  }
  const sourceId =
    (existing?.config?.path === SITE ? existing.id : undefined) ??
    (
      await gql<{ addSource: { id: string } }>(
        'mutation($i: AddSourceInput!) { addSource(input: $i) { id } }',
        { i: { projectId, type: 'FOLDER', name: 'Team handbook (MkDocs)', config: { path: SITE } } },
      )
    ).addSource.id;
  const { syncSource } = await gql<{ syncSource: { id: string } }>(
    'mutation($id: ID!) { syncSource(id: $id) { id } }',
    { id: sourceId },
  );
  let run: Run;
  const deadline = Date.now() + 300_000;
  for (;;) {
    run = (
      await gql<{ syncRun: Run }>(
        'query($id: ID!) { syncRun(id: $id) { status error { message } progress { pagesSeen pagesIngested pagesUnchanged pagesFailed } } }',
        { id: syncSource.id },
      )
    ).syncRun;
    if (run.status !== 'RUNNING') break;
    if (Date.now() > deadline)
      throw new Error('the handbook sync did not finish in 5 minutes; see .trove/logs/');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const p = run.progress;
  console.log(
    `\nMkDocs folder source samples/handbook-site: ${run.status}, ${p.pagesSeen} pages, ${p.pagesIngested} ingested, ${p.pagesUnchanged} unchanged, ${p.pagesFailed} failed`,
  );
  checks.add(syncProblems('the handbook (samples/handbook-site)', run, { pages: mkdocsPages(SITE).length }));

  for (const { query, page } of DEMO_SEARCHES) {
    const { search } = await gql<{
      search: { hits: { title: string; headingPath: string[]; citationUrl: string | null }[] };
    }>('query($i: SearchInput!) { search(input: $i) { hits { title headingPath citationUrl } } }', {
      i: { projectId, query, limit: 3 },
    });
    console.log(`  "${query}":`);
    search.hits.forEach((hit, i) =>
      console.log(
        `    ${i + 1}. ${[hit.title, ...hit.headingPath.slice(1)].join(' › ')}  ${hit.citationUrl ?? ''}`,
      ),
    );
    checks.add(searchProblems(query, search.hits));
    checks.add(
      rankProblems(query, search.hits, {
        name: `the handbook page ${page}`,
        is: (hit) => hit.citationUrl?.startsWith(`${SITE_URL}${page}`) ?? false,
      }),
    );
  }
  checks.report();
}

main().catch((error) => {
  console.error(`folder demo failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
