import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { AccessRegistryCheck } from './access-registry.check';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ProjectAccess } from './project-access.service';
import { ProjectScopeInterceptor } from './project-scope.interceptor';
import { RequestRateLimit } from './rate-limit';
import { RequestAdmission } from './request-admission';

/**
 * Who is calling, what the operation needs, which projects it reaches: the guard and the scope
 * interceptor of every resolver and route, and the start-up check that each declares its access.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    ApiKeyAuthenticator,
    RequestRateLimit,
    RequestAdmission,
    ProjectAccess,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_INTERCEPTOR, useClass: ProjectScopeInterceptor },
    AccessRegistryCheck,
  ],
  exports: [ApiKeyAuthenticator, RequestAdmission],
})
export class AccessModule {}
