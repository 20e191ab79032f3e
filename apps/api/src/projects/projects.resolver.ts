import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { CreateProjectInput, ProjectModel, ProjectStatsModel } from './project.model';
import { ProjectsService } from './projects.service';

@Resolver(() => ProjectModel)
export class ProjectsResolver {
  constructor(@Inject(ProjectsService) private readonly service: ProjectsService) {}

  @Query(() => [ProjectModel])
  projects() {
    return this.service.list();
  }

  @Query(() => ProjectModel, { nullable: true })
  project(@Args('id', { type: () => ID }) id: string) {
    return this.service.get(id);
  }

  @ResolveField(() => ProjectStatsModel, { description: "Totals over the project's documents" })
  stats(@Parent() project: ProjectModel) {
    return this.service.stats(project.id);
  }

  @Mutation(() => ProjectModel)
  createProject(@Args('input') input: CreateProjectInput) {
    return this.service.create(input.name);
  }

  @Mutation(() => Boolean, {
    description:
      'Deletes the project with everything in it (sources, documents, chunks, files, schedules). ' +
      'Returns once the deletion has started: the project shows status DELETING and refuses every ' +
      'write until it is gone. With wait: true, returns once it is gone. Calling it again joins ' +
      'the running deletion.',
  })
  deleteProject(
    @Args('id', { type: () => ID }) id: string,
    @Args('wait', { type: () => Boolean, defaultValue: false }) wait: boolean,
  ) {
    return this.service.delete(id, { wait });
  }
}
