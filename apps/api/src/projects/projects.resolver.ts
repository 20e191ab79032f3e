import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import {
  CreateProjectInput,
  DocumentTypeCountModel,
  ProjectModel,
  ProjectSettingsInput,
  ProjectSettingsModel,
  ProjectStatsModel,
} from './project.model';
import { ProjectsService } from './projects.service';
import { AuditAction, Permission, type Principal, type Project, projectOcr } from '@trove/domain';
import { CurrentPrincipal, project, Requires } from '../access/access.decorators';

@Resolver(() => ProjectModel)
export class ProjectsResolver {
  constructor(@Inject(ProjectsService) private readonly service: ProjectsService) {}

  @Query(() => [ProjectModel], { description: 'The projects the API key reaches' })
  @Requires(Permission.READ)
  projects(@CurrentPrincipal() principal: Principal) {
    return this.service.list(principal);
  }

  @Query(() => ProjectModel, { nullable: true })
  @Requires(Permission.READ, project('id', { nullable: true }))
  project(@Args('id', { type: () => ID }) id: string) {
    return this.service.get(id);
  }

  @ResolveField(() => ProjectStatsModel, { description: "Totals over the project's documents" })
  stats(@Parent() project: ProjectModel) {
    return this.service.stats(project.id);
  }

  @ResolveField(() => [DocumentTypeCountModel], {
    description: "The media types of the project's documents, most documents first (what search filters by)",
  })
  documentTypes(@Parent() project: ProjectModel) {
    return this.service.documentTypes(project.id);
  }

  @ResolveField(() => ProjectSettingsModel)
  settings(@Parent() project: Project): ProjectSettingsModel {
    return { ocr: projectOcr(project) };
  }

  @Mutation(() => ProjectModel, {
    description: "Changes the project's settings (those given; the others stay as they are).",
  })
  @Requires(Permission.WRITE, project('projectId'), { audit: AuditAction.ProjectSettingsChanged })
  updateProjectSettings(
    @Args('projectId', { type: () => ID }) projectId: string,
    @Args('input') input: ProjectSettingsInput,
  ) {
    return this.service.updateSettings(projectId, input);
  }

  @Mutation(() => ProjectModel)
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.ProjectCreated })
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
  @Requires(Permission.ADMIN, project('id'), { audit: AuditAction.ProjectDeleted })
  deleteProject(
    @Args('id', { type: () => ID }) id: string,
    @Args('wait', { type: () => Boolean, defaultValue: false }) wait: boolean,
  ) {
    return this.service.delete(id, { wait });
  }
}
