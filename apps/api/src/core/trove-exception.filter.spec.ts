import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { httpStatusFor } from './trove-exception.filter';

describe('httpStatusFor', () => {
  it('maps every error code to an HTTP status', () => {
    for (const code of Object.values(TroveErrorCode)) {
      expect(httpStatusFor(code), code).toBeGreaterThanOrEqual(400);
    }
  });

  it('uses the statuses the REST contract promises', () => {
    expect(httpStatusFor(TroveErrorCode.Unauthenticated)).toBe(401);
    expect(httpStatusFor(TroveErrorCode.ProjectNotFound)).toBe(404);
    expect(httpStatusFor(TroveErrorCode.DocumentNameConflict)).toBe(409);
    expect(httpStatusFor(TroveErrorCode.PayloadTooLarge)).toBe(413);
    expect(httpStatusFor(TroveErrorCode.UnsupportedMediaType)).toBe(415);
    expect(httpStatusFor(TroveErrorCode.ServiceUnavailable)).toBe(503);
  });
});
