import { Inject } from '@nestjs/common';
import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import type { AuditRepository } from '@trove/catalog';
import { type ApiConfig, auditSchema } from '@trove/config';
import { Permission } from '@trove/domain';
import { Requires } from '../access/access.decorators';
import { AUDIT_LOG } from '../core/catalog.providers';
import { CONFIG } from '../core/tokens';
import { auditFilter } from './audit-filter';
import { AuditEventConnection, AuditFilterInput, AuditSettingsModel, QueryCountModel } from './audit.model';

/** The audit log, for install-wide ADMINs: paged newest first and filtered; counts of queries per person. */
@Resolver()
export class AuditResolver {
  constructor(
    @Inject(AUDIT_LOG) private readonly audit: Pick<AuditRepository, 'page' | 'queryCounts'>,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  @Query(() => AuditEventConnection, { description: 'The audit log, newest first' })
  @Requires(Permission.ADMIN)
  async auditEvents(
    @Args('first', { type: () => Int, defaultValue: 50 }) first: number,
    @Args('after', { type: () => String, nullable: true }) after?: string,
    @Args('filter', { type: () => AuditFilterInput, nullable: true }) filter?: AuditFilterInput,
  ): Promise<AuditEventConnection> {
    const page = await this.audit.page(auditFilter(filter), { first, after: after ?? undefined });
    return {
      nodes: page.items as AuditEventConnection['nodes'],
      pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
      totalCount: page.totalCount,
    };
  }

  @Query(() => AuditSettingsModel)
  @Requires(Permission.ADMIN)
  auditSettings(): AuditSettingsModel {
    return this.config.audit ?? auditSchema.parse({});
  }

  @Query(() => [QueryCountModel], {
    description:
      'Searches and asks per person (or key), project and day, newest day first (when queries are counted, not logged)',
  })
  @Requires(Permission.ADMIN)
  async queryCounts(
    @Args('projectId', { type: () => ID, nullable: true }) projectId?: string,
    @Args('from', { type: () => String, nullable: true }) from?: string,
    @Args('to', { type: () => String, nullable: true }) to?: string,
  ) {
    return this.audit.queryCounts({
      ...(projectId && { projectId }),
      ...(from && { from }),
      ...(to && { to }),
    }) as Promise<QueryCountModel[]>;
  }
}
