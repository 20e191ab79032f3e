import { Inject, Injectable } from '@nestjs/common';
import type { DocumentCounts, ProjectRecords, ProjectRemovals } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import type { Principal, Project } from '@trove/domain';
import {
  deleteProjectWorkflowId,
  inProjectScope,
  mediaTypeLabel,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { DOCUMENT_COUNTS, PROJECT_RECORDS, PROJECT_REMOVALS } from '../core/catalog.providers';
import { CONFIG, WORKFLOWS } from '../core/tokens';
import type { WorkflowStarts } from '../core/workflows';

@Injectable()
export class ProjectsService {
  constructor(
    @Inject(PROJECT_RECORDS) private readonly projects: ProjectRecords,
    @Inject(PROJECT_REMOVALS) private readonly removals: Pick<ProjectRemovals, 'markProjectDeleting'>,
    @Inject(DOCUMENT_COUNTS) private readonly counts: Pick<DocumentCounts, 'totals' | 'mediaTypeCounts'>,
    @Inject(WORKFLOWS) private readonly workflows: WorkflowStarts,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  create(name: string): Promise<Project> {
    return this.projects.createProject(name);
  }

  /** The projects the principal reaches (all of them for an all-projects key). */
  async list(principal: Principal): Promise<Project[]> {
    return (await this.projects.listProjects()).filter((project) => inProjectScope(principal, project.id));
  }

  get(id: string): Promise<Project | undefined> {
    return this.projects.getProject(id);
  }

  /** Changes the settings given (null or absent: unchanged). */
  updateSettings(id: string, input: { ocr?: boolean | null }): Promise<Project> {
    return this.projects.updateProjectSettings(id, {
      ...(typeof input.ocr === 'boolean' && { ocr: input.ocr }),
    });
  }

  async stats(id: string): Promise<{ documentCount: number; chunkCount: number }> {
    const totals = await this.counts.totals(id);
    return { documentCount: totals.documents, chunkCount: totals.chunks };
  }

  /** The media types of the project's documents, most documents first. */
  async documentTypes(id: string): Promise<{ mediaType: string; label: string; documentCount: number }[]> {
    const counts = await this.counts.mediaTypeCounts(id);
    return counts.map(({ mediaType, documents }) => ({
      mediaType,
      label: mediaTypeLabel(mediaType),
      documentCount: documents,
    }));
  }

  /**
   * Marks the project DELETING (so every later write is refused at once) and starts its delete
   * workflow, which removes everything in it; a second call joins the running workflow.
   */
  async delete(id: string, options: { wait?: boolean } = {}): Promise<boolean> {
    await this.projects.requireProject(id);
    await this.removals.markProjectDeleting(id);
    let handle;
    try {
      handle = await this.workflows.start('deleteProject', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: deleteProjectWorkflowId(id),
        args: [id],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (error) {
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        'the workflow service (Temporal) is unavailable; the project is marked DELETING, call deleteProject again',
        { cause: error },
      );
    }
    if (options.wait) await handle.result();
    return true;
  }
}
