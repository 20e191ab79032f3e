import { describe, expect, it } from 'vitest';
import type { AnswerRecords, Page, ProjectReads, ThreadScope } from '@trove/catalog';
import {
  ApiKeyRole,
  type AnswerRecord,
  type Principal,
  ProjectStatus,
  type Thread,
  TroveErrorCode,
} from '@trove/domain';
import { reachesThread, ThreadsService } from './threads.service';

const key = (keyId: string | undefined, role = ApiKeyRole.VIEWER): Principal => ({
  keyId,
  name: keyId ?? 'bootstrap',
  role,
  projects: 'ALL',
});
const ALICE = key('key-alice');
const BOB = key('key-bob');
const ADMIN = key('key-admin', ApiKeyRole.ADMIN);

const THREAD: Thread = {
  id: 'thr_0b4f3c4e-2a8f-4f0e-9d2a-6b1f0c9e7a11',
  projectId: 'prj_1',
  apiKeyId: 'key-alice',
  title: 'Deploys',
  turnCount: 1,
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
};
const TURN: AnswerRecord = {
  id: 'ans_1',
  projectId: 'prj_1',
  threadId: THREAD.id,
  position: 1,
  question: 'How do I deploy in the Berlin office?',
  mode: 'EXTRACTIVE',
  answer: 'Run deployctl [1].',
  citations: [
    {
      marker: 1,
      chunkId: 'c',
      documentId: 'd',
      title: 'Berlin',
      headingPath: [],
      citationUrl: '/v1/documents/d/original',
      quote: 'Run deployctl.',
    },
  ],
  hits: [],
  createdAt: THREAD.createdAt,
};

class FakeThreads
  implements
    Pick<AnswerRecords, 'getThread' | 'listThreads' | 'renameThread' | 'deleteThread' | 'threadTurns'>,
    Pick<ProjectReads, 'requireProject'>
{
  scopes: ThreadScope[] = [];
  getThread = (id: string) => Promise.resolve(id === THREAD.id ? THREAD : undefined);
  listThreads(_projectId: string, scope: ThreadScope): Promise<Page<Thread>> {
    this.scopes.push(scope);
    return Promise.resolve({ items: [THREAD], totalCount: 1, hasNextPage: false });
  }
  renameThread = (_id: string, title: string) => Promise.resolve({ ...THREAD, title });
  deleteThread = () => Promise.resolve(true);
  threadTurns = () => Promise.resolve([TURN]);
  requireProject = (id: string) =>
    Promise.resolve({ id, name: 'p', status: ProjectStatus.ACTIVE, createdAt: THREAD.createdAt });
}

function service() {
  const catalog = new FakeThreads();
  const signed = (url: string | undefined) => url && `https://trove.example${url}?sig=fresh`;
  return { catalog, threads: new ThreadsService(catalog, catalog, { absolute: signed }) };
}

describe('whose threads', () => {
  it("a key reaches its own threads, ADMIN keys every key's, the bootstrap key those without a key", () => {
    expect(reachesThread(ALICE, THREAD)).toBe(true);
    expect(reachesThread(BOB, THREAD)).toBe(false);
    expect(reachesThread(ADMIN, THREAD)).toBe(true);
    expect(reachesThread(key(undefined), { apiKeyId: undefined, projectId: THREAD.projectId })).toBe(true);
    expect(reachesThread(BOB, { apiKeyId: undefined, projectId: THREAD.projectId })).toBe(false);
  });

  it("lists the caller's own threads; every key's only for ADMIN keys", async () => {
    const { catalog, threads } = service();
    await threads.list(ALICE, 'prj_1', {});
    await threads.list(key(undefined, ApiKeyRole.ADMIN), 'prj_1', {});
    await threads.list(ADMIN, 'prj_1', {}, true);
    expect(catalog.scopes).toEqual([{ apiKeyId: 'key-alice' }, {}, 'ALL']);
    await expect(threads.list(BOB, 'prj_1', {}, true)).rejects.toMatchObject({
      code: TroveErrorCode.Forbidden,
    });
  });

  it("answers another key's thread as a missing one: null to read, THREAD_NOT_FOUND to change", async () => {
    const { threads } = service();
    expect(await threads.get(BOB, THREAD.id)).toBeUndefined();
    await expect(threads.rename(BOB, THREAD.id, 'x')).rejects.toMatchObject({
      code: TroveErrorCode.ThreadNotFound,
    });
    await expect(threads.delete(BOB, THREAD.id)).rejects.toMatchObject({
      code: TroveErrorCode.ThreadNotFound,
    });
    expect(await threads.rename(ALICE, THREAD.id, '  Deploys \n per office ')).toMatchObject({
      title: 'Deploys per office',
    });
    await expect(threads.rename(ALICE, THREAD.id, '   ')).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
    });
  });

  it('serves turns with links to originals signed afresh', async () => {
    const [turn] = await service().threads.turns(THREAD.id);
    expect(turn).toMatchObject({ answerId: 'ans_1', position: 1, question: TURN.question });
    expect(turn.citations[0].citationUrl).toBe('https://trove.example/v1/documents/d/original?sig=fresh');
  });
});

describe('the thread a question is asked in', () => {
  it('none, a new one titled by the question, or the caller’s own with its earlier turns', async () => {
    const { threads } = service();
    expect(await threads.forQuestion(ALICE, 'prj_1', {}, 'q')).toEqual({});
    const started = await threads.forQuestion(ALICE, 'prj_1', { newThread: true }, 'How do I deploy?');
    expect(started.threadId).toMatch(/^thr_/);
    expect(started.record).toEqual({ new: { id: started.threadId, title: 'How do I deploy?' } });
    const continued = await threads.forQuestion(ALICE, 'prj_1', { threadId: THREAD.id }, 'and Moscow?');
    expect(continued).toEqual({
      threadId: THREAD.id,
      history: [{ question: TURN.question, standaloneQuestion: undefined, answer: TURN.answer }],
      record: { id: THREAD.id },
    });
  });

  it("refuses another key's thread, one of another project, and both choices at once", async () => {
    const { threads } = service();
    await expect(threads.forQuestion(BOB, 'prj_1', { threadId: THREAD.id }, 'q')).rejects.toMatchObject({
      code: TroveErrorCode.ThreadNotFound,
    });
    await expect(threads.forQuestion(ALICE, 'prj_2', { threadId: THREAD.id }, 'q')).rejects.toMatchObject({
      code: TroveErrorCode.ThreadNotFound,
    });
    await expect(
      threads.forQuestion(ALICE, 'prj_1', { threadId: THREAD.id, newThread: true }, 'q'),
    ).rejects.toMatchObject({ code: TroveErrorCode.BadRequest });
  });
});
