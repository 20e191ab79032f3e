import { describe, expect, it } from 'vitest';
import { TroveApiError } from '@trove/api-client';
import { pickProject, type ProjectSummary } from './project-resolver';

const project = (id: string, name: string): ProjectSummary => ({
  id,
  name,
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00Z',
  settings: { ocr: true },
  stats: { documentCount: 0, chunkCount: 0 },
});
const docs = project('11111111-1111-4111-8111-111111111111', 'Docs');
const wiki = project('22222222-2222-4222-8222-222222222222', 'Team Wiki');

function failure(run: () => unknown): TroveApiError {
  try {
    run();
  } catch (error) {
    return error as TroveApiError;
  }
  throw new Error('expected a failure');
}

describe('pickProject', () => {
  it('takes an id, an exact name, or a name in another case', () => {
    expect(pickProject([docs, wiki], wiki.id)).toBe(wiki);
    expect(pickProject([docs, wiki], 'Team Wiki')).toBe(wiki);
    expect(pickProject([docs, wiki], ' team wiki ')).toBe(wiki);
  });

  it('prefers an exact name over a case-insensitive one', () => {
    const lower = project('33333333-3333-4333-8333-333333333333', 'docs');
    expect(pickProject([docs, lower], 'docs')).toBe(lower);
  });

  it('defaults to the only project the key reaches', () => {
    expect(pickProject([docs], undefined)).toBe(docs);
    expect(pickProject([docs], '')).toBe(docs);
  });

  it('asks for a project, listing the choices, when the key reaches several', () => {
    const error = failure(() => pickProject([docs, wiki], undefined));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toContain('"Docs" (11111111-1111-4111-8111-111111111111)');
    expect(error.message).toContain('"Team Wiki"');
  });

  it('answers PROJECT_NOT_FOUND for an unknown name and for a key without projects', () => {
    expect(failure(() => pickProject([docs], 'Handbook'))).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect(failure(() => pickProject([], undefined))).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  });
});
