import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Project, ProjectSettings } from '@trove/domain';
import {
  isTroveId,
  notFoundError,
  normalizeProjectName,
  projectNameKey,
  ProjectStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { ProjectRecords, ProjectRemovals } from './catalog.ports';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import type { ProjectsTable } from './tables';
import { jsonb } from './postgres-text';
import { activeProject } from './source-lock';

/** Projects: names are unique (case-insensitively) among ACTIVE projects, by a partial unique index. */
export class ProjectRepository implements ProjectRecords, ProjectRemovals {
  constructor(private readonly db: CatalogDb) {}

  /** Creates an ACTIVE project; a taken name is PROJECT_NAME_CONFLICT. */
  async createProject(name: string): Promise<Project> {
    const normalized = normalizeProjectName(name);
    const project: Project = {
      id: randomUUID(),
      name: normalized,
      status: ProjectStatus.ACTIVE,
      createdAt: new Date().toISOString(),
    };
    try {
      await this.db
        .insertInto('projects')
        .values({
          id: project.id,
          name: project.name,
          name_key: projectNameKey(project.name),
          status: ProjectStatus.ACTIVE,
          created_at: project.createdAt,
        })
        .execute();
    } catch (error) {
      if (pgCode(error) === PgCode.uniqueViolation) {
        throw new TroveError(
          TroveErrorCode.ProjectNameConflict,
          `a project named "${normalized}" already exists (names are compared ignoring case)`,
        );
      }
      return query('creating the project', () => Promise.reject(error));
    }
    return project;
  }

  /** Inserts a project as it was (the one-time import); existing ids are left alone. */
  async import(project: Project): Promise<void> {
    await query('importing a project', () =>
      this.db
        .insertInto('projects')
        .values({
          id: project.id,
          name: project.name,
          name_key: projectNameKey(project.name),
          status: project.status ?? ProjectStatus.ACTIVE,
          created_at: project.createdAt,
        })
        .onConflict((c) => c.doNothing())
        .execute(),
    );
  }

  async getProject(id: string): Promise<Project | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading a project', () =>
      this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toProject(row);
  }

  async requireProject(id: string): Promise<Project> {
    const project = await this.getProject(id);
    if (!project) throw notFoundError('project', id);
    return project;
  }

  /** Every project, oldest first, including those being deleted. */
  async listProjects(): Promise<Project[]> {
    const rows = await query('listing projects', () =>
      this.db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('id').execute(),
    );
    return rows.map(toProject);
  }

  /** Marks the project DELETING, which frees its name; undefined when it does not exist. */
  async markProjectDeleting(id: string): Promise<Project | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('marking a project deleted', () =>
      this.db
        .updateTable('projects')
        .set({ status: ProjectStatus.DELETING })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toProject(row);
  }

  /**
   * Changes settings of an ACTIVE project, in one statement (a project being deleted is never
   * written); PROJECT_NOT_FOUND, or PROJECT_DELETING when it is being deleted.
   */
  async updateProjectSettings(id: string, change: ProjectSettings): Promise<Project> {
    const row = isTroveId(id) ? await this.writeSettings(id, change) : undefined;
    if (row) return toProject(row);
    activeProject(await this.requireProject(id)); // throws the reason
    throw notFoundError('project', id); // deleted meanwhile
  }

  private async writeSettings(id: string, change: ProjectSettings) {
    return query('changing project settings', () =>
      this.db
        .updateTable('projects')
        .set({ settings: sql<string>`settings || ${jsonb(change)}::jsonb` })
        .where('id', '=', id)
        .where('status', '=', ProjectStatus.ACTIVE)
        .returningAll()
        .executeTakeFirst(),
    );
  }

  /** Removes the project; its sources, documents and runs go with it (cascade). */
  async deleteProject(id: string): Promise<void> {
    if (!isTroveId(id)) return;
    await query('deleting a project', () => this.db.deleteFrom('projects').where('id', '=', id).execute());
  }
}

function toProject(row: Selectable<ProjectsTable>): Project {
  return {
    id: row.id,
    name: row.name,
    status: row.status as ProjectStatus,
    createdAt: row.created_at.toISOString(),
    ...(row.settings && Object.keys(row.settings).length > 0 && { settings: row.settings }),
  };
}
