import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION, uploadConversation } from '../support/conversation';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Conversations through the public API: threads kept per key, follow-ups rewritten into standalone
// questions before retrieval. No LLM is configured in the stack: the rewrite is the offline one.
const stack = new TroveStack();
let projectId: string;
let otherProjectId: string;
let ids: Record<string, string>;
let viewer: string;
let otherViewer: string;

const ASK = `query($input: AskInput!) { ask(input: $input) {
  answerId threadId standaloneQuestion answer mode
  citations { marker documentId title citationUrl quote } } }`;
const THREAD = `query($id: ID!) { thread(id: $id) {
  id projectId title turnCount
  turns { answerId position question standaloneQuestion mode answer citations { documentId citationUrl } } } }`;
const THREADS = `query($projectId: ID!, $allKeys: Boolean) {
  threads(projectId: $projectId, first: 50, allKeys: $allKeys) { totalCount nodes { id title turnCount } } }`;

interface Answer {
  answerId: string;
  threadId: string | null;
  standaloneQuestion: string | null;
  answer: string;
  mode: string;
  citations: {
    marker: number;
    documentId: string;
    title: string;
    citationUrl: string | null;
    quote: string;
  }[];
}

const headers = (key: string) => ({ 'X-API-Key': key });

/** A quoted line without its marker: "… /parking-nsk [2]." → "… /parking-nsk." */
const stripMarker = (line: string) => line.replace(/\s*\[\d+\]/g, '');

async function ask(input: Record<string, unknown>, key = ADMIN_KEY): Promise<Answer> {
  const body = await stack.gql<{ ask: Answer }>(ASK, { input: { projectId, ...input } }, headers(key));
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data!.ask;
}

/** The error code a GraphQL request is refused with. */
async function refusal(query: string, variables: Record<string, unknown>, key = ADMIN_KEY): Promise<unknown> {
  const body = await stack.gql(query, variables, headers(key));
  return body.errors?.[0]?.extensions?.code;
}

async function newKey(name: string, role: string): Promise<string> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
    { input: { name, role, projectIds: [projectId, otherProjectId] } },
  );
  return createApiKey.secret;
}

/** Reads a whole SSE response into its events. */
async function streamEvents(response: Response): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => ({
      event: /^event: (.+)$/m.exec(block)![1],
      data: JSON.parse(/^data: (.+)$/m.exec(block)![1]) as Record<string, unknown>,
    }));
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Threads e2e');
  otherProjectId = await stack.createProject('Threads elsewhere');
  ids = await uploadConversation(stack, projectId);
  viewer = await newKey('thread viewer', 'VIEWER');
  otherViewer = await newKey('another viewer', 'VIEWER');
});
afterAll(() => stack.stop());

describe('a follow-up in a thread', () => {
  let threadId: string;
  let first: Answer;

  it('alone, the follow-up finds the office page first, not the parking page (the fixture holds)', async () => {
    const { search } = await stack.query<{ search: { hits: { documentId: string }[] } }>(
      'query($input: SearchInput!) { search(input: $input) { hits { documentId } } }',
      { input: { projectId, query: CONVERSATION.followUp, limit: 3 } },
    );
    expect(search.hits[0].documentId).toBe(ids[CONVERSATION.office.fileName]);
    const alone = await ask({ question: CONVERSATION.followUp });
    expect(alone.standaloneQuestion).toBeNull();
    expect(alone.threadId).toBeNull();
    expect(alone.answerId).toMatch(/^ans_/);
  });

  it('a new thread starts with the first question, answered from the Berlin page', async () => {
    first = await ask({ question: CONVERSATION.first, newThread: true });
    expect(first.threadId).toMatch(/^thr_/);
    expect(first.answerId).toMatch(/^ans_/);
    expect(first.standaloneQuestion).toBeNull();
    expect(first.citations[0].documentId).toBe(ids[CONVERSATION.berlin.fileName]);
    threadId = first.threadId!;
  });

  it('retrieves by the rewritten question, which the stream and the answer report, citing the parking page', async () => {
    const response = await fetch(`${stack.url}/v1/projects/${projectId}/ask/stream`, {
      method: 'POST',
      headers: { ...headers(ADMIN_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ question: CONVERSATION.followUp, threadId }),
    });
    expect(response.status).toBe(200);
    const events = await streamEvents(response);
    const retrieval = events.find((e) => e.event === 'retrieval')!.data as {
      standaloneQuestion: string;
      passages: { documentId: string }[];
    };
    expect(retrieval.standaloneQuestion).toBe(CONVERSATION.standalone);
    expect(retrieval.passages[0].documentId).toBe(ids[CONVERSATION.parking.fileName]);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const result = done.data as unknown as Answer;
    expect(result).toMatchObject({ threadId, standaloneQuestion: CONVERSATION.standalone });
    expect(result.citations[0].documentId).toBe(ids[CONVERSATION.parking.fileName]);
    expect(result.citations[0].quote).toContain('/parking-nsk');
    // The first answer quoted that sentence in passing; the follow-up keeps it (it is the answer)
    // and adds only what the first answer did not say.
    const quotes = (answer: string) => answer.split('\n').slice(2).filter(Boolean).map(stripMarker);
    const repeated = quotes(result.answer).filter((line) => quotes(first.answer).includes(line));
    expect(repeated).toEqual([stripMarker(result.citations[0].quote)]);
    expect(quotes(result.answer).length).toBeGreaterThan(1);
  });

  it('keeps the turns in order, with what each searched for and links signed afresh', async () => {
    const { thread } = await stack.query<{
      thread: {
        title: string;
        turnCount: number;
        turns: {
          position: number;
          question: string;
          standaloneQuestion: string | null;
          citations: { documentId: string; citationUrl: string }[];
        }[];
      };
    }>(THREAD, { id: threadId });
    expect(thread).toMatchObject({ title: CONVERSATION.first, turnCount: 2 });
    expect(thread.turns.map((t) => [t.position, t.question, t.standaloneQuestion])).toEqual([
      [1, CONVERSATION.first, null],
      [2, CONVERSATION.followUp, CONVERSATION.standalone],
    ]);
    const link = thread.turns[1].citations[0].citationUrl;
    expect(link).toMatch(
      new RegExp(`^${stack.url}/v1/documents/${ids[CONVERSATION.parking.fileName]}/original\\?sig=`),
    );
    expect((await fetch(link)).status).toBe(200);
  });

  it('refuses a thread of another project, an unknown one, and threadId with newThread', async () => {
    const otherProject = await stack.gql(ASK, {
      input: { projectId: otherProjectId, question: CONVERSATION.followUp, threadId },
    });
    expect(otherProject.errors?.[0]?.extensions?.code).toBe('THREAD_NOT_FOUND');
    expect(
      await refusal(ASK, {
        input: { projectId, question: 'q', threadId: 'thr_00000000-0000-4000-8000-000000000000' },
      }),
    ).toBe('THREAD_NOT_FOUND');
    expect(await refusal(ASK, { input: { projectId, question: 'q', threadId, newThread: true } })).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('threads are per key', () => {
  let mine: string;

  it("a key lists, reads and continues its own threads; another key's are not found", async () => {
    mine = (await ask({ question: CONVERSATION.first, newThread: true }, viewer)).threadId!;
    const followUp = await ask({ question: CONVERSATION.followUp, threadId: mine }, viewer);
    expect(followUp.standaloneQuestion).toBe(CONVERSATION.standalone);

    const own = await stack.gql<{ threads: { nodes: { id: string }[] } }>(
      THREADS,
      { projectId },
      headers(viewer),
    );
    expect(own.data!.threads.nodes.map((t) => t.id)).toEqual([mine]);
    const theirs = await stack.gql<{ threads: { totalCount: number } }>(
      THREADS,
      { projectId },
      headers(otherViewer),
    );
    expect(theirs.data!.threads.totalCount).toBe(0);
    const read = await stack.gql<{ thread: unknown }>(THREAD, { id: mine }, headers(otherViewer));
    expect(read.data!.thread).toBeNull();
    expect(await refusal(ASK, { input: { projectId, question: 'q', threadId: mine } }, otherViewer)).toBe(
      'THREAD_NOT_FOUND',
    );
    expect(
      await refusal(
        'mutation($id: ID!) { renameThread(id: $id, title: "x") { id } }',
        { id: mine },
        otherViewer,
      ),
    ).toBe('THREAD_NOT_FOUND');
    expect(await refusal('mutation($id: ID!) { deleteThread(id: $id) }', { id: mine }, otherViewer)).toBe(
      'THREAD_NOT_FOUND',
    );
  });

  it("an ADMIN key reaches every key's threads; only ADMIN keys may list them all", async () => {
    const all = await stack.query<{ threads: { nodes: { id: string }[] } }>(THREADS, {
      projectId,
      allKeys: true,
    });
    expect(all.threads.nodes.map((t) => t.id)).toContain(mine);
    const adminsOwn = await stack.query<{ threads: { nodes: { id: string }[] } }>(THREADS, { projectId });
    expect(adminsOwn.threads.nodes.map((t) => t.id)).not.toContain(mine);
    expect((await stack.query<{ thread: { id: string } }>(THREAD, { id: mine })).thread.id).toBe(mine);
    expect(await refusal(THREADS, { projectId, allKeys: true }, viewer)).toBe('FORBIDDEN');
  });

  it("a key scoped to one project gets, for another project's thread, the answer a missing thread gets", async () => {
    const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
      { input: { name: 'scoped admin reader', role: 'VIEWER', projectIds: [projectId] } },
    );
    const elsewhere = (
      await stack.query<{ ask: { threadId: string } }>(ASK, {
        input: { projectId: otherProjectId, question: CONVERSATION.first, newThread: true },
      })
    ).ask.threadId;
    const ghost = 'thr_00000000-0000-4000-8000-000000000000';
    const rename = 'mutation($id: ID!) { renameThread(id: $id, title: "x") { id } }';
    const answers = async (id: string) => {
      const read = await stack.gql<{ thread: unknown }>(THREAD, { id }, headers(createApiKey.secret));
      const renamed = await stack.gql(rename, { id }, headers(createApiKey.secret));
      return [
        read.data?.thread,
        renamed.errors?.[0]?.extensions?.code,
        renamed.errors?.[0]?.message.replace(id, '<id>'),
      ];
    };
    expect(await answers(elsewhere)).toEqual(await answers(ghost));
    expect((await answers(ghost))[1]).toBe('THREAD_NOT_FOUND');
  });

  it('renames and deletes a thread with its turns', async () => {
    const { renameThread } = await stack
      .gql<{ renameThread: { title: string } }>(
        'mutation($id: ID!) { renameThread(id: $id, title: "  Parking   per office ") { title } }',
        { id: mine },
        headers(viewer),
      )
      .then((body) => body.data!);
    expect(renameThread.title).toBe('Parking per office');
    expect(
      await refusal('mutation($id: ID!) { renameThread(id: $id, title: " ") { id } }', { id: mine }, viewer),
    ).toBe('BAD_REQUEST');
    const deleted = await stack.gql<{ deleteThread: boolean }>(
      'mutation($id: ID!) { deleteThread(id: $id) }',
      { id: mine },
      headers(viewer),
    );
    expect(deleted.data!.deleteThread).toBe(true);
    expect(
      (await stack.gql<{ thread: unknown }>(THREAD, { id: mine }, headers(viewer))).data!.thread,
    ).toBeNull();
    expect(await refusal(ASK, { input: { projectId, question: 'q', threadId: mine } }, viewer)).toBe(
      'THREAD_NOT_FOUND',
    );
  });
});
