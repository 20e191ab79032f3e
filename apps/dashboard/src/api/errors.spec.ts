import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFrom, errorMessage } from './errors';

describe('errors shown in the dashboard', () => {
  it('carry the API message and code, from GraphQL or REST bodies', () => {
    const graphql = apiErrorFrom(200, {
      errors: [{ message: 'project p not found', extensions: { code: 'PROJECT_NOT_FOUND' } }],
    });
    expect([graphql.message, graphql.code]).toEqual(['project p not found', 'PROJECT_NOT_FOUND']);
    const rest = apiErrorFrom(413, {
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'the file is too large' },
    });
    expect([rest.message, rest.code, rest.status]).toEqual([
      'the file is too large',
      'PAYLOAD_TOO_LARGE',
      413,
    ]);
    expect(apiErrorFrom(401, { errors: [{ message: 'the API key is not valid' }] }).unauthenticated).toBe(
      true,
    );
  });

  it('carry the fields of an invalid source configuration, for the form', () => {
    const problems = [{ field: 'config.url', message: 'must be an http(s) URL' }];
    const error = apiErrorFrom(200, {
      errors: [
        { message: 'invalid WEB source configuration', extensions: { code: 'BAD_REQUEST', problems } },
      ],
    });
    expect(error.problems).toEqual(problems);
    expect(apiErrorFrom(200, { errors: [{ message: 'm', extensions: { code: 'X' } }] }).problems).toEqual([]);
  });

  it('never show a stack or an internal message: unknown failures get a fixed sentence', () => {
    expect(apiErrorFrom(502, '<html>Bad gateway</html>').message).toBe('The API answered 502');
    expect(errorMessage(new ApiError('the API key is not valid', 'UNAUTHENTICATED', 401))).toBe(
      'the API key is not valid',
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(
      'The API could not be reached (is it running?)',
    );
    const internal = new Error(
      'ECONNREFUSED 10.0.0.7:5432 at Pool.connect (/app/node_modules/pg/lib/index.js:1)',
    );
    expect(errorMessage(internal)).toBe('Something went wrong');
  });
});
