import { describe, expect, it } from 'vitest';
import { ErrorCode, errorKind, ProtocolErrorCode } from './error-kind';
import { TroveErrorCode } from './errors';

describe('errorKind', () => {
  it.each([
    [TroveErrorCode.Unauthenticated, 'auth'],
    [TroveErrorCode.Forbidden, 'forbidden'],
    [TroveErrorCode.ProjectNotFound, 'not-found'],
    [TroveErrorCode.SyncRunNotFound, 'not-found'],
    [TroveErrorCode.SourceItemGone, 'not-found'],
    [ProtocolErrorCode.NotFound, 'not-found'],
    [TroveErrorCode.BadRequest, 'malformed'],
    [ProtocolErrorCode.BadUserInput, 'malformed'],
    [ProtocolErrorCode.GraphqlValidationFailed, 'malformed'],
    [TroveErrorCode.QueryTooComplex, 'invalid'],
    [TroveErrorCode.ProjectNameConflict, 'invalid'],
    [TroveErrorCode.PayloadTooLarge, 'invalid'],
    [TroveErrorCode.EmptyDocument, 'invalid'],
    [TroveErrorCode.RateLimited, 'unavailable'],
    [TroveErrorCode.ServiceUnavailable, 'unavailable'],
    ['NETWORK', 'unavailable'],
    [TroveErrorCode.LlmFailed, 'failure'],
    [TroveErrorCode.SourceUnauthorized, 'failure'],
    [TroveErrorCode.Internal, 'failure'],
  ])('%s is %s', (code, kind) => {
    expect(errorKind(code)).toBe(kind);
  });

  it('classifies every code the API can send', () => {
    for (const code of Object.values(ErrorCode)) expect(errorKind(code), code).toBeTypeOf('string');
  });

  it('decides by the HTTP status only for a code it does not define', () => {
    expect(errorKind('HTTP_404')).toBe('not-found');
    expect(errorKind('HTTP_409')).toBe('invalid');
    expect(errorKind('HTTP_502')).toBe('failure');
    expect(errorKind('SOMETHING_NEWER', 401)).toBe('auth');
    expect(errorKind('SOMETHING_NEWER', 429)).toBe('unavailable');
    expect(errorKind('SOMETHING_NEWER')).toBe('failure');
    // A known code wins over the status it came with (GraphQL answers 200).
    expect(errorKind(TroveErrorCode.DocumentNotFound, 200)).toBe('not-found');
  });
});
