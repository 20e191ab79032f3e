import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { createLogger, defaultLogFormat, loggedError, loggedPath, requestIdOf, traceIdOf } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      done();
    },
  });
  return { lines, logger: createLogger('trove-test', { format: 'json' }, stream) };
}

describe('createLogger', () => {
  it('writes JSON lines with the level as a word and censors secret-named fields', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: { headers: { authorization: 'Bearer sk-123', 'x-api-key': 'trove_k_1' } },
        config: { apiKey: 'sk-abc', token: 'ntn_1', adminApiKey: 'admin-1' },
        token: 'top',
      },
      'hello',
    );
    expect(lines[0]).toMatchObject({ level: 'info', name: 'trove-test', msg: 'hello' });
    const text = JSON.stringify(lines[0]);
    for (const secret of ['sk-123', 'trove_k_1', 'sk-abc', 'ntn_1', 'admin-1', '"top"'])
      expect(text).not.toContain(secret);
  });

  it('defaults to pretty on a terminal outside production, JSON otherwise', () => {
    expect(defaultLogFormat({}, true)).toBe('pretty');
    expect(defaultLogFormat({}, false)).toBe('json');
    expect(defaultLogFormat({ NODE_ENV: 'production' }, true)).toBe('json');
  });
});

describe('request fields', () => {
  it('reads the trace id of a W3C traceparent, nothing else', () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdOf('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdOf('garbage')).toBeUndefined();
    expect(traceIdOf(undefined)).toBeUndefined();
  });

  it('keeps a short request id from the client, else makes one', () => {
    expect(requestIdOf('abc-123')).toBe('abc-123');
    expect(requestIdOf('a b')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('x'.repeat(65))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs paths without their query', () => {
    expect(loggedPath('/v1/documents/d1/original?sig=secret')).toBe('/v1/documents/d1/original');
  });
});

describe('loggedError', () => {
  it('an expected permanent failure is its code and message, no stack; anything else keeps its stack', () => {
    const permanent = ApplicationFailure.create({
      nonRetryable: true,
      type: 'PARSE_FAILED',
      message: 'bad pdf',
    });
    expect(loggedError(permanent)).toEqual({
      type: 'ApplicationFailure',
      code: 'PARSE_FAILED',
      message: 'bad pdf',
    });
    const unexpected = loggedError(new Error('boom'));
    expect(unexpected.stack).toContain('boom');
  });
});
