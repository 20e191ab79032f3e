import { describe, expect, it } from 'vitest';
import { apiErrorFrom, TroveApiError } from './api-error';

describe('apiErrorFrom', () => {
  it('reads a GraphQL error: its code and message', () => {
    const error = apiErrorFrom(200, {
      errors: [{ message: 'no project p_1', extensions: { code: 'PROJECT_NOT_FOUND' } }],
    });
    expect(error).toMatchObject({ code: 'PROJECT_NOT_FOUND', message: 'no project p_1', status: 200 });
    expect(error.kind).toBe('not-found');
  });

  it('reads a REST error body', () => {
    const error = apiErrorFrom(413, {
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'the file is over 100 MB' },
    });
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'the file is over 100 MB' });
    expect(error.kind).toBe('invalid');
  });

  it('reads the fields of an invalid source configuration, of either protocol', () => {
    const problems = [{ field: 'config.url', message: 'Invalid URL' }];
    expect(
      apiErrorFrom(200, { errors: [{ message: 'invalid', extensions: { code: 'BAD_REQUEST', problems } }] })
        .problems,
    ).toEqual(problems);
    expect(
      apiErrorFrom(400, { error: { code: 'BAD_REQUEST', message: 'invalid', problems } }).problems,
    ).toEqual(problems);
    expect(apiErrorFrom(400, { error: { code: 'BAD_REQUEST', message: 'invalid' } }).problems).toEqual([]);
  });

  it('falls back to the HTTP status when the body says nothing', () => {
    const error = apiErrorFrom(502, undefined);
    expect(error.code).toBe('HTTP_502');
    expect(error.kind).toBe('failure');
  });
});

describe('TroveApiError.kind', () => {
  it.each([
    ['UNAUTHENTICATED', 401, 'auth'],
    ['FORBIDDEN', 403, 'forbidden'],
    ['SOURCE_NOT_FOUND', 200, 'not-found'],
    ['BAD_USER_INPUT', 200, 'malformed'],
    ['PROJECT_NAME_CONFLICT', 200, 'invalid'],
    ['NETWORK', undefined, 'unavailable'],
    ['RATE_LIMITED', 429, 'unavailable'],
    ['INTERNAL', 200, 'failure'],
  ])('%s (HTTP %s) is %s', (code, status, kind) => {
    expect(new TroveApiError('m', code, status).kind).toBe(kind);
  });
});
