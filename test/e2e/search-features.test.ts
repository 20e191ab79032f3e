import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { TroveStack } from '../support/stack';

// Search filters resolved through the catalog, grouping and context expansion, through GraphQL (issue 11).
const stack = new TroveStack();
let projectId: string;
let sourceId: string;
let foreignSourceId: string;
let guideId: string;
let notesId: string;
/** After the guide was indexed and before the notes were uploaded. */
let between: string;

const SEARCH = `query($input: SearchInput!) { search(input: $input) {
  hits { chunkId documentId position score context { chunkId position text } }
  groups { documentId title score hits { chunkId } passages { chunkIds hitChunkIds positionStart positionEnd text } } } }`;

interface Hit {
  chunkId: string;
  documentId: string;
  position: number;
  score: number;
  context: { chunkId: string; position: number; text: string }[] | null;
}
interface Group {
  documentId: string;
  hits: { chunkId: string }[];
  passages: {
    chunkIds: string[];
    hitChunkIds: string[];
    positionStart: number;
    positionEnd: number;
    text: string;
  }[];
}

const search = (input: Record<string, unknown>) =>
  stack.gql<{ search: { hits: Hit[]; groups: Group[] | null } }>(SEARCH, {
    input: { projectId, query: 'roll back a release', limit: 10, ...input },
  });

const section = (title: string, sentence: string) => `## ${title}\n\n${Array(12).fill(sentence).join(' ')}\n`;
const GUIDE = [
  '# Release guide\n',
  section('Prepare', 'Tag the release candidate and announce the maintenance window to the team.'),
  section('Rollback', 'To roll back a release, run deployctl rollback and confirm the prompt.'),
  section('Verify', 'After a rollback, check the health dashboard and the error rate of the service.'),
  section('Cleanup', 'Remove the stale release branches and archive the build logs.'),
].join('\n');

async function documentIds(project: string): Promise<Map<string, string>> {
  const { documents } = await stack.query<{ documents: { nodes: { id: string; fileName: string }[] } }>(
    'query($p: ID!) { documents(projectId: $p, first: 100) { nodes { id fileName } } }',
    { p: project },
  );
  return new Map(documents.nodes.map((d) => [d.fileName, d.id]));
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Search features');
  const archive = await stack.uploadArchive(
    projectId,
    'guides.zip',
    await buildZip([{ path: 'guide.md', data: GUIDE }]),
    { name: 'Release guides' },
  );
  expect(archive.status).toBe(202);
  sourceId = archive.body.source!.id;
  expect((await stack.runSettled(archive.body.run!.id)).status).toBe('COMPLETED');
  guideId = (await documentIds(projectId)).get('guide.md')!;
  await new Promise((resolve) => setTimeout(resolve, 50));
  between = new Date().toISOString();
  const notes = await stack.upload(
    projectId,
    'notes.md',
    '# Notes\n\nWe roll back a release when the error rate doubles.\n',
  );
  notesId = notes.body.id as string;
  expect((await stack.settled(notesId)).status).toBe('READY');

  const other = await stack.createProject('Search features, other project');
  const foreign = await stack.uploadArchive(
    other,
    'other.zip',
    await buildZip([{ path: 'x.md', data: '# X\n\nRollback.\n' }]),
  );
  foreignSourceId = foreign.body.source!.id;
  await stack.runSettled(foreign.body.run!.id);
}, 600_000);
afterAll(() => stack.stop());

describe('filters resolved through the catalog', () => {
  it('sourceIds keeps the source’s documents only; without it the upload is found too', async () => {
    const all = await search({});
    expect(new Set(all.data!.search.hits.map((h) => h.documentId))).toEqual(new Set([guideId, notesId]));
    const bySource = await search({ filters: { sourceIds: [sourceId] } });
    expect(bySource.data!.search.hits.length).toBeGreaterThan(0);
    expect(new Set(bySource.data!.search.hits.map((h) => h.documentId))).toEqual(new Set([guideId]));
  });

  it('a date range on the last update keeps the documents updated in it; an empty range gives no hits', async () => {
    const recent = await search({ filters: { updatedFrom: between } });
    expect(new Set(recent.data!.search.hits.map((h) => h.documentId))).toEqual(new Set([notesId]));
    const older = await search({ filters: { updatedTo: between } });
    expect(new Set(older.data!.search.hits.map((h) => h.documentId))).toEqual(new Set([guideId]));
    const future = await search({ filters: { updatedFrom: '2999-01-01T00:00:00Z' } });
    expect(future.data!.search.hits).toEqual([]);
  });

  it('a source of another project, or an unknown one, is SOURCE_NOT_FOUND', async () => {
    for (const id of [foreignSourceId, randomUUID()]) {
      const answer = await search({ filters: { sourceIds: [id] } });
      expect(answer.errors?.[0].extensions?.code).toBe('SOURCE_NOT_FOUND');
    }
  });

  it('bad values are BAD_REQUEST with a readable message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ expand: -1 }, 'expand must be an integer between 0 and 3'],
      [{ mmrLambda: 2 }, 'mmrLambda must be between 0 and 1'],
      [{ filters: { updatedFrom: 'last week' } }, 'filters.updatedFrom must be an ISO 8601 date'],
    ];
    for (const [input, message] of cases) {
      const answer = await search(input);
      expect(answer.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
      expect(answer.errors?.[0].message).toContain(message);
    }
  });
});

describe('hits name where they come from', () => {
  it('a source’s document by its source and file, an upload by its file alone', async () => {
    const answer = await stack.gql<{ search: { hits: Record<string, string | null>[] } }>(
      `query($input: SearchInput!) { search(input: $input) {
        hits { documentId title fileName sourceId sourceName sourceType } } }`,
      { input: { projectId, query: 'roll back a release', limit: 10 } },
    );
    const expected: Record<string, Record<string, string | null>> = {
      [guideId]: {
        documentId: guideId,
        title: 'Release guide',
        fileName: 'guide.md',
        sourceId,
        sourceName: 'Release guides',
        sourceType: 'FOLDER',
      },
      [notesId]: {
        documentId: notesId,
        title: 'Notes',
        fileName: 'notes.md',
        sourceId: null,
        sourceName: null,
        sourceType: null,
      },
    };
    const hits = answer.data!.search.hits;
    expect(new Set(hits.map((hit) => hit.documentId))).toEqual(new Set([guideId, notesId]));
    for (const hit of hits) expect(hit).toEqual(expected[hit.documentId!]);
  });
});

describe('grouping and context expansion', () => {
  it('expand gives each hit its neighbouring chunks in order; groups merge them into passages', async () => {
    const answer = await search({
      filters: { sourceIds: [sourceId] },
      limit: 1,
      expand: 1,
      groupByDocument: true,
    });
    const { hits, groups } = answer.data!.search;
    const [hit] = hits;
    expect(hit.context!.map((c) => c.position)).toEqual(
      [hit.position - 1, hit.position + 1].filter((p) => p >= 0),
    );
    expect(groups).toHaveLength(1);
    const [group] = groups!;
    expect(group.documentId).toBe(guideId);
    expect(group.hits.map((h) => h.chunkId)).toEqual([hit.chunkId]);
    expect(group.passages).toHaveLength(1);
    const passage = group.passages[0];
    expect(passage.hitChunkIds).toEqual([hit.chunkId]);
    expect(passage.chunkIds).toEqual([
      ...hit.context!.filter((c) => c.position < hit.position).map((c) => c.chunkId),
      hit.chunkId,
      ...hit.context!.filter((c) => c.position > hit.position).map((c) => c.chunkId),
    ]);
    expect(passage.positionEnd - passage.positionStart + 1).toBe(passage.chunkIds.length);
    expect(passage.text).toContain('deployctl rollback');
  });

  it('without groupByDocument there are no groups, and hits carry no context', async () => {
    const answer = await search({});
    expect(answer.data!.search.groups).toBeNull();
    expect(answer.data!.search.hits.every((h) => h.context === null)).toBe(true);
  });
});
