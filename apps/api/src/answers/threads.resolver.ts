import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuditAction, Permission, type Principal, type Thread } from '@trove/domain';
import { CurrentPrincipal, project, Requires, thread } from '../access/access.decorators';
import { PageArgs } from '../core/connection.model';
import { ThreadConnection, ThreadModel, ThreadTurnModel } from './thread.model';
import { ThreadsService } from './threads.service';

/**
 * Conversation threads: any key that may ask (READ) has threads of its own. A key reaches only
 * its own threads; ADMIN keys reach every thread of their projects (see `reachesThread`).
 */
@Resolver(() => ThreadModel)
export class ThreadsResolver {
  constructor(@Inject(ThreadsService) private readonly service: ThreadsService) {}

  @Query(() => ThreadConnection, {
    description: "The caller's threads in a project, most recently used first, a page at a time",
  })
  @Requires(Permission.READ, project('projectId'))
  threads(
    @Args('projectId', { type: () => ID }) projectId: string,
    @Args() page: PageArgs,
    @Args('allKeys', {
      defaultValue: false,
      description: "Every key's threads, not only the caller's (ADMIN keys only)",
    })
    allKeys: boolean,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.list(principal, projectId, page, allKeys);
  }

  @Query(() => ThreadModel, {
    nullable: true,
    description: 'A thread with its turns; null when the caller does not reach it',
  })
  @Requires(Permission.READ, thread('id', { nullable: true }))
  thread(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() principal: Principal) {
    return this.service.get(principal, id);
  }

  @Mutation(() => ThreadModel, { description: 'Gives a thread another title' })
  @Requires(Permission.READ, thread('id'), { audit: AuditAction.ThreadChanged })
  renameThread(
    @Args('id', { type: () => ID }) id: string,
    @Args('title') title: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.service.rename(principal, id, title);
  }

  @Mutation(() => Boolean, { description: 'Deletes a thread and its turns (their recorded answers)' })
  @Requires(Permission.READ, thread('id'), { audit: AuditAction.ThreadDeleted })
  deleteThread(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() principal: Principal) {
    return this.service.delete(principal, id);
  }

  @ResolveField(() => [ThreadTurnModel])
  turns(@Parent() parent: Thread): Promise<ThreadTurnModel[]> {
    return this.service.turns(parent.id);
  }
}
