import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { TroveIdPipe } from './trove-id.pipe';

const pipe = new TroveIdPipe();
const UUID = '0b4f3c4e-2a8f-4f0e-9d2a-6b1f0c9e7a11';
const DOCUMENT_ID = '3f2a9c0d8e7b6a5f4e3d2c1b0a998877';

describe('TroveIdPipe (GraphQL id arguments and REST path parameters)', () => {
  it('passes UUIDs and 32-hex document ids, and chunk ids as `id`', () => {
    expect(pipe.transform(UUID, { type: 'param', data: 'projectId' })).toBe(UUID);
    expect(pipe.transform(DOCUMENT_ID, { type: 'body', data: 'id' })).toBe(DOCUMENT_ID);
    const chunkId = `${DOCUMENT_ID}-3-0123456789ab`;
    expect(pipe.transform(chunkId, { type: 'body', data: 'id' })).toBe(chunkId);
  });

  it('passes thread and answer ids as `id` and under their own names, and nowhere else', () => {
    const thread = `thr_${UUID}`;
    const answer = `ans_${UUID}`;
    expect(pipe.transform(thread, { type: 'body', data: 'id' })).toBe(thread);
    expect(pipe.transform(answer, { type: 'body', data: 'id' })).toBe(answer);
    expect(pipe.transform(thread, { type: 'body', data: 'threadId' })).toBe(thread);
    expect(pipe.transform(answer, { type: 'body', data: 'answerId' })).toBe(answer);
    expect(() => pipe.transform(thread, { type: 'param', data: 'projectId' })).toThrow(/not a valid id/);
    expect(() => pipe.transform(UUID, { type: 'body', data: 'threadId' })).toThrow(/not a valid id/);
  });

  it.each(['', ' ', '../_search', 'x'.repeat(600), `${DOCUMENT_ID}-3-0123456789ab`])(
    'refuses %j as a projectId with BAD_REQUEST',
    (value) => {
      expect(() => pipe.transform(value, { type: 'param', data: 'projectId' })).toThrow(
        expect.objectContaining({
          code: TroveErrorCode.BadRequest,
          message: expect.stringMatching(/not a valid id/),
        }),
      );
    },
  );

  it('leaves other arguments, bodies and inputs alone', () => {
    expect(pipe.transform('', { type: 'custom', data: 'query' })).toBe('');
    expect(pipe.transform({ projectId: '' }, { type: 'custom', data: 'input' })).toEqual({ projectId: '' });
    expect(pipe.transform('', { type: 'query', data: 'id' })).toBe('');
  });
});
