import { describe, expect, it } from 'vitest';
import { apiErrorFrom, TroveApiError } from '@trove/api-client/browser';
import { errorMessage } from './errors';

describe('errors shown in the dashboard', () => {
  it('show the API message of either protocol', () => {
    const graphql = apiErrorFrom(200, {
      errors: [{ message: 'project p not found', extensions: { code: 'PROJECT_NOT_FOUND' } }],
    });
    expect(errorMessage(graphql)).toBe('project p not found');
    const rest = apiErrorFrom(413, {
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'the file is too large' },
    });
    expect(errorMessage(rest)).toBe('the file is too large');
  });

  it('never show a stack or an internal message: unknown failures get a fixed sentence', () => {
    expect(errorMessage(apiErrorFrom(502, '<html>Bad gateway</html>'))).toBe('the API answered HTTP 502');
    expect(errorMessage(new TroveApiError('the API key is not valid', 'UNAUTHENTICATED', 401))).toBe(
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
