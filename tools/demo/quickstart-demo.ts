/**
 * The quick start's demo: ingests samples/quickstart through the public API, waits for the
 * documents to be READY, runs a few searches and one `ask`, and prints the hits, the answer with
 * its citations, and the URLs to explore. It exits non-zero, naming each failed check, when a
 * sample is not READY, a search does not rank the sample it is about in its top 3 or a hit has no
 * citation URL, or the answer does not cite the sample it is about.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { apiKey, base, gql } from './demo-client';
import { askProblems, DemoChecks, rankProblems, sampleDocumentProblems, searchProblems } from './demo-checks';

const headers = { 'X-API-Key': apiKey };
const SAMPLE_DIR = join(__dirname, '..', '..', 'samples', 'quickstart');
const PROJECT_NAME = 'Quickstart sample';

/** Each demo search, and the sample it is about: it must rank in the top 3. */
const DEMO_SEARCHES = [
  { query: 'how do I roll back a release?', expected: 'deploy-runbook.md' },
  { query: 'уровни изоляции транзакций', expected: 'interview-notes-ru.md' },
  { query: 'interview behavioural questions', expected: 'interview-notes-ru.md' },
];
/** The demo question, and the sample its answer must cite. */
const DEMO_QUESTION = { question: 'How do I roll back a release?', expected: 'deploy-runbook.md' };

interface Doc {
  id: string;
  fileName: string;
  status: string;
  chunkCount: number;
  error?: { message: string } | null;
  timings: { totalMs?: number | null };
}

async function main() {
  const checks = new DemoChecks('quickstart demo');
  const sampleFiles = (await readdir(SAMPLE_DIR)).sort();
  const { projects } = await gql<{ projects: { id: string; name: string }[] }>('{ projects { id name } }');
  const projectId =
    projects.find((p) => p.name === PROJECT_NAME)?.id ??
    (
      await gql<{ createProject: { id: string } }>(
        'mutation($n: String!) { createProject(input: {name: $n}) { id } }',
        { n: PROJECT_NAME },
      )
    ).createProject.id;

  for (const fileName of sampleFiles) {
    const form = new FormData();
    form.append('file', new Blob([await readFile(join(SAMPLE_DIR, fileName))]), fileName);
    const response = await fetch(`${base}/v1/projects/${projectId}/documents`, {
      method: 'POST',
      headers,
      body: form,
    });
    const body = (await response.json()) as { id?: string; error?: { code: string; message: string } };
    if (response.status === 202) console.log(`  uploaded ${fileName} → document ${body.id}`);
    else if (response.status === 409) console.log(`  ${fileName} is already in the project`);
    else throw new Error(`upload of ${fileName} failed: ${response.status} ${JSON.stringify(body)}`);
  }

  const documentsQuery =
    '{ documents(projectId: "ID", first: 500) { nodes { id fileName status chunkCount error { message } timings { totalMs } } } }'.replace(
      'ID',
      projectId,
    );
  let documents: Doc[] = [];
  const deadline = Date.now() + 180_000;
  for (;;) {
    // The project also holds the folder demo's pages: only the samples are waited for and checked.
    documents = (await gql<{ documents: { nodes: Doc[] } }>(documentsQuery)).documents.nodes.filter((d) =>
      sampleFiles.includes(d.fileName),
    );
    if (documents.every((d) => d.status === 'READY' || d.status === 'FAILED')) break;
    if (Date.now() > deadline)
      throw new Error('the sample was not indexed within 3 minutes; see .trove/logs/worker.log');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log('\nDocuments:');
  for (const d of documents) {
    const detail =
      d.status === 'FAILED' ? d.error?.message : `${d.chunkCount} chunks, ${d.timings.totalMs ?? '?'} ms`;
    console.log(`  ${d.status.padEnd(7)} ${d.fileName} (${detail})`);
  }
  checks.add(sampleDocumentProblems(sampleFiles, documents));

  const sample = (fileName: string) => {
    const id = documents.find((d) => d.fileName === fileName)?.id;
    return { name: `the sample ${fileName}`, is: (hit: { documentId?: string }) => hit.documentId === id };
  };
  for (const { query, expected } of DEMO_SEARCHES) {
    const { search } = await gql<{
      search: {
        tookMs: number;
        hits: {
          documentId: string;
          title: string;
          headingPath: string[];
          text: string;
          citationUrl: string | null;
          score: number;
          bm25: { rank: number } | null;
          knn: { rank: number } | null;
        }[];
      };
    }>(
      'query($i: SearchInput!) { search(input: $i) { tookMs hits { documentId title headingPath text citationUrl score bm25 { rank } knn { rank } } } }',
      { i: { projectId, query, limit: 3, mode: 'HYBRID' } },
    );
    console.log(`\nSearch: "${query}" (${search.tookMs} ms)`);
    search.hits.forEach((hit, i) => {
      const where = [hit.title, ...hit.headingPath.slice(1)].join(' › ');
      const legs = `bm25 #${hit.bm25?.rank ?? '-'}, knn #${hit.knn?.rank ?? '-'}`;
      console.log(`  ${i + 1}. ${where}  [${legs}]`);
      console.log(`     ${hit.text.replace(/\s+/g, ' ').slice(0, 140)}`);
    });
    checks.add(searchProblems(query, search.hits));
    checks.add(rankProblems(query, search.hits, sample(expected)));
  }

  // An answer with citations. No LLM is configured by default, so `ask` answers offline by quoting
  // the most relevant sentences (mode EXTRACTIVE), and says so; with TROVE_LLM=local a model in the
  // api writes it (mode LLM), or, past its time budget, the quotes answer, labelled with why.
  const { question } = DEMO_QUESTION;
  const { ask } = await gql<{
    ask: {
      answer: string;
      mode: string;
      model: string | null;
      fallbackReason: string | null;
      citations: { marker: number; documentId: string; title: string; citationUrl: string | null }[];
    };
  }>(
    'query($i: AskInput!) { ask(input: $i) { answer mode model fallbackReason citations { marker documentId title citationUrl } } }',
    { i: { projectId, question } },
  );
  const by = ask.model ? `, ${ask.model}${ask.fallbackReason ? `: ${ask.fallbackReason}` : ''}` : '';
  const how = ask.mode === 'EXTRACTIVE' || ask.mode === 'TOP_1' ? ': quoted, no language model' : '';
  console.log(`\nAsk: "${question}" (mode ${ask.mode}${how}${by})`);
  console.log(`  ${ask.answer.replace(/\n+/g, '\n  ')}`);
  ask.citations.forEach((c) => console.log(`  [${c.marker}] ${c.title}  ${c.citationUrl ?? ''}`));
  checks.add(askProblems(question, ask, sample(DEMO_QUESTION.expected)));

  const temporalUi = `http://127.0.0.1:${process.env.TROVE_TEMPORAL_UI_PORT ?? '8233'}`;
  console.log(`
Trove is running:
  API           ${base}   (API key in .trove/admin-api-key)
  GraphQL       ${base}/graphql
  Temporal UI   ${temporalUi}
  Project id    ${projectId}
Stop everything with: npm run stop`);
  checks.report();
}

main().catch((error) => {
  console.error(`quickstart demo failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
