import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Project, ProjectSettings } from '@trove/domain';
import {
  isTroveId,
  normalizeProjectName,
  projectNameKey,
  ProjectStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import type { ProjectsTable } from './tables';
import { jsonb } from './postgres-text';

/** Projects: names are unique (case-insensitively) among ACTIVE projects, by a partial unique index. */
export class ProjectRepository {
  constructor(private readonly db: CatalogDb) {}

  /** Creates an ACTIVE project; a taken name is PROJECT_NAME_CONFLICT. */
  async create(name: string): Promise<Project> {
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

  async get(id: string): Promise<Project | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading a project', () =>
      this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toProject(row);
  }

  /** Every project, oldest first, including those being deleted. */
  async list(): Promise<Project[]> {
    const rows = await query('listing projects', () =>
      this.db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('id').execute(),
    );
    return rows.map(toProject);
  }

  /** Marks the project DELETING, which frees its name; undefined when it does not exist. */
  async markDeleting(id: string): Promise<Project | undefined> {
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
   * written); undefined when there is no such active project.
   */
  async updateSettings(id: string, change: ProjectSettings): Promise<Project | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('changing project settings', () =>
      this.db
        .updateTable('projects')
        .set({ settings: sql<string>`settings || ${jsonb(change)}::jsonb` })
        .where('id', '=', id)
        .where('status', '=', ProjectStatus.ACTIVE)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toProject(row);
  }

  /** Removes the project; its sources, documents and runs go with it (cascade). */
  async delete(id: string): Promise<void> {
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
