import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CreateProjectInput, ProjectModel } from './project.model';
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

  @Mutation(() => ProjectModel)
  createProject(@Args('input') input: CreateProjectInput) {
    return this.service.create(input.name);
  }

  @Mutation(() => Boolean, { description: 'Deletes the project with all its documents and chunks.' })
  deleteProject(@Args('id', { type: () => ID }) id: string) {
    return this.service.delete(id);
  }
}
