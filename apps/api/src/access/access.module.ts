import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { AccessRegistryCheck } from './access-registry.check';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ProjectAccess } from './project-access.service';
import { AuditInterceptor } from './audit.interceptor';
import { PEOPLE_PROVIDERS } from './people.providers';
import { PrincipalConfirmation } from './principal-confirmation';
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
    PrincipalConfirmation,
    ...PEOPLE_PROVIDERS,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_INTERCEPTOR, useClass: ProjectScopeInterceptor },
    // After the scope check, so its entries name the record's project.
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
    AccessRegistryCheck,
  ],
  exports: [ApiKeyAuthenticator, RequestAdmission, PrincipalConfirmation, ProjectAccess, ...PEOPLE_PROVIDERS],
})
export class AccessModule {}
