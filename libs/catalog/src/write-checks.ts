import type { Project, Source } from '@trove/domain';
import { SourceStatus } from '@trove/domain';
import type { ProjectReads, SourceRecords, WriteChecks } from './catalog.ports';
import { activeProject, sourceRemoving } from './source-lock';

/**
 * The rule that spans projects and sources: nothing is written to a project being deleted or to
 * a source being removed (or whose project is being deleted).
 */
export class ActiveRecordChecks implements WriteChecks {
  constructor(
    private readonly projects: Pick<ProjectReads, 'requireProject'>,
    private readonly sources: Pick<SourceRecords, 'requireSource'>,
  ) {}

  async requireActiveProject(id: string): Promise<Project> {
    return activeProject(await this.projects.requireProject(id));
  }

  async requireActiveSource(id: string): Promise<Source> {
    const source = await this.sources.requireSource(id);
    if (source.status === SourceStatus.REMOVING) throw sourceRemoving(id);
    await this.requireActiveProject(source.projectId);
    return source;
  }
}
