import type { ArgumentsHost } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorKind, SourceConfigError, TroveError, TroveErrorCode } from '@trove/domain';
import { formatGraphqlError } from './graphql-limits';
import { httpStatusFor, TroveExceptionFilter } from './trove-exception.filter';

describe('httpStatusFor', () => {
  it('maps every error code to an HTTP status', () => {
    for (const code of Object.values(TroveErrorCode)) {
      expect(httpStatusFor(code), code).toBeGreaterThanOrEqual(400);
    }
  });

  it("agrees with each code's kind, the classification clients use (libs/domain errorKind)", () => {
    for (const code of Object.values(TroveErrorCode)) {
      const status = httpStatusFor(code);
      const kind = errorKind(code);
      const expected = {
        auth: [401],
        forbidden: [403],
        'not-found': [404],
        malformed: [400],
        invalid: [400, 409, 413, 415],
        unavailable: [429, 503],
        failure: [499, 500, 502],
      }[kind];
      expect(expected, `${code} (${kind}) answers HTTP ${status}`).toContain(status);
    }
  });

  it('uses the statuses the REST contract promises', () => {
    expect(httpStatusFor(TroveErrorCode.Unauthenticated)).toBe(401);
    expect(httpStatusFor(TroveErrorCode.Forbidden)).toBe(403);
    expect(httpStatusFor(TroveErrorCode.ApiKeyNotFound)).toBe(404);
    expect(httpStatusFor(TroveErrorCode.RateLimited)).toBe(429);
    expect(httpStatusFor(TroveErrorCode.ProjectNotFound)).toBe(404);
    expect(httpStatusFor(TroveErrorCode.DocumentNameConflict)).toBe(409);
    expect(httpStatusFor(TroveErrorCode.PayloadTooLarge)).toBe(413);
    expect(httpStatusFor(TroveErrorCode.UnsupportedMediaType)).toBe(415);
    expect(httpStatusFor(TroveErrorCode.ServiceUnavailable)).toBe(503);
    expect(httpStatusFor(TroveErrorCode.QueryTooComplex)).toBe(400);
  });
});

/** Runs the filter on a REST request and returns what the client got and what was logged. */
function answer(exception: unknown) {
  const logged: string[] = [];
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
      logged.push(String(args[0]));
    });
  }
  const sent: { status?: number; body?: unknown } = {};
  const response = {
    status: (status: number) => {
      sent.status = status;
      return response;
    },
    json: (body: unknown) => {
      sent.body = body;
    },
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => response }),
  } as unknown as ArgumentsHost;
  new TroveExceptionFilter().catch(exception, host);
  return { ...sent, logged };
}

/** The shape of body-parser's errors (http-errors): status, expose, type. */
function bodyParserError(status: number, message: string, fields: Record<string, unknown>) {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, ...fields });
}

describe('TroveExceptionFilter', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers a body over the JSON limit with 413 and logs one line', () => {
    const { status, body, logged } = answer(
      bodyParserError(413, 'request entity too large', { type: 'entity.too.large', limit: 102400 }),
    );
    expect(status).toBe(413);
    expect(body).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'the request body is larger than the limit of 102400 bytes',
      },
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain('\n');
  });

  it('answers a body whose Content-Encoding does not decode with 400, an unknown encoding with 415', () => {
    const broken = answer(bodyParserError(400, 'incorrect header check', { code: 'Z_DATA_ERROR' }));
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('Content-Encoding') },
    });
    expect(broken.logged).toHaveLength(1);
    const unknown = answer(
      bodyParserError(415, 'unsupported content encoding "br2"', { type: 'encoding.unsupported' }),
    );
    expect(unknown.status).toBe(415);
    expect(unknown.body).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported content encoding "br2"' },
    });
  });

  it('never returns backend details for INTERNAL or backend failures; logs them as one line', () => {
    const leaky =
      'Elasticsearch answered 400 while reading project: http://127.0.0.1:9200/trove-projects/_doc/\nat x';
    const indexFailed = answer(new TroveError(TroveErrorCode.IndexFailed, leaky));
    expect(indexFailed.status).toBe(502);
    expect(JSON.stringify(indexFailed.body)).not.toContain('9200');
    expect(indexFailed.body).toEqual({
      error: { code: 'INDEX_FAILED', message: expect.stringContaining('see the API logs') },
    });
    expect(indexFailed.logged).toEqual([expect.stringContaining('9200')]);
    expect(indexFailed.logged[0]).not.toContain('\n');

    const unknown = answer(new TypeError(`Cannot read properties of undefined (reading 'x') ${leaky}`));
    expect(unknown.status).toBe(500);
    expect(unknown.body).toEqual({
      error: { code: 'INTERNAL', message: 'internal error; see the API logs' },
    });
    expect(unknown.logged).toHaveLength(1);
    expect(unknown.logged[0]).toMatch(/^TypeError: Cannot read properties/);
    expect(unknown.logged[0]).not.toContain('\n');
  });

  it('keeps the message of client errors', () => {
    const { status, body } = answer(
      new TroveError(TroveErrorCode.ProjectNotFound, 'project p does not exist'),
    );
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: 'PROJECT_NOT_FOUND', message: 'project p does not exist' } });
  });

  it('lists the fields of an invalid source configuration, over REST and GraphQL', () => {
    const problems = [
      { field: 'config.url', message: 'Invalid URL' },
      { field: 'config.maxPages', message: 'Too small: expected number to be >=1' },
    ];
    const { status, body } = answer(new SourceConfigError('WEB', problems));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'BAD_REQUEST', problems } });
    const graphql = formatGraphqlError(
      {
        message: 'invalid WEB source configuration',
        extensions: { code: 'BAD_REQUEST', status: 400, problems },
      },
      undefined,
      () => undefined,
    );
    expect(graphql.extensions).toEqual({ code: 'BAD_REQUEST', problems });
    // Anything else in `problems` is not passed on.
    const odd = formatGraphqlError(
      { message: 'm', extensions: { code: 'BAD_REQUEST', problems: [{ field: 1 }] } },
      undefined,
      () => undefined,
    );
    expect(odd.extensions).toEqual({ code: 'BAD_REQUEST' });
  });
});
