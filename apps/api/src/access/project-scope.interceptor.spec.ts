import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Permission } from '@trove/domain';
import { project, Requires } from './access.decorators';
import { memoryAudit } from './admission.testing';
import { ProjectAccess } from './project-access.service';
import { ProjectScopeInterceptor, valueAt } from './project-scope.interceptor';

// Only paths that decide before any lookup are tested here; lookups are in the e2e access matrix.
const nothing = async () => undefined;
const interceptor = new ProjectScopeInterceptor(
  new Reflector(),
  new ProjectAccess(
    { getProject: nothing },
    { getDocument: nothing },
    { getSource: nothing },
    { getRun: nothing },
    { getThread: nothing, answerProject: nothing },
  ),
  memoryAudit().recorder,
);

class Routes {
  @Requires(Permission.READ, project('projectId'))
  byParam() {
    return 'byParam';
  }
  @Requires(Permission.READ, project('projectid'))
  misspelt() {
    return 'misspelt';
  }
}

function http(handler: keyof Routes, params: Record<string, string>): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ params, headers: {} }) }),
  } as unknown as ExecutionContext;
}

const handler: CallHandler = { handle: () => of('handled') };

describe('ProjectScopeInterceptor', () => {
  it('fails closed when a rule names an argument the operation does not have', async () => {
    await expect(interceptor.intercept(http('misspelt', { projectId: 'x' }), handler)).rejects.toThrow(
      /names no argument projectid/,
    );
  });

  it('leaves a malformed id to the operation (the same BAD_REQUEST for every caller)', async () => {
    const result = await interceptor.intercept(http('byParam', { projectId: 'not-an-id' }), handler);
    expect(await lastValueFrom(result)).toBe('handled');
  });

  it('reads nested argument paths', () => {
    expect(valueAt({ input: { projectId: 'p' } }, 'input.projectId')).toBe('p');
    expect(valueAt({ input: null }, 'input.projectId')).toBeUndefined();
  });
});
