import { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '@trove/config';
import { ApiKeyGuard, Public } from './api-key.guard';

const KEY = 'unit-test-admin-key-0123';
const guard = new ApiKeyGuard(new Reflector(), { api: { adminApiKey: KEY } } as unknown as ApiConfig);

class Routes {
  guarded() {
    return 'guarded';
  }
  @Public()
  open() {
    return 'open';
  }
}

function http(headers: Record<string, string>, handler: keyof Routes = 'guarded'): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ headers }) }),
  } as unknown as ExecutionContext;
}

describe('ApiKeyGuard', () => {
  it('accepts the key in X-API-Key or as a Bearer token', () => {
    expect(guard.canActivate(http({ 'x-api-key': KEY }))).toBe(true);
    expect(guard.canActivate(http({ authorization: `Bearer ${KEY}` }))).toBe(true);
    expect(guard.canActivate(http({ authorization: `bearer ${KEY}` }))).toBe(true);
  });

  it('rejects a missing, wrong or differently sized key as UNAUTHENTICATED', () => {
    expect(() => guard.canActivate(http({}))).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => guard.canActivate(http({ 'x-api-key': `${KEY}x` }))).toThrow('the API key is not valid');
    expect(() => guard.canActivate(http({ authorization: `Basic ${KEY}` }))).toThrow(/API key is required/);
  });

  it('lets @Public() routes through without a key', () => {
    expect(guard.canActivate(http({}, 'open'))).toBe(true);
  });
});
