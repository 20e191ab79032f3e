import { describe, expect, it } from 'vitest';
import {
  type Project,
  ProjectStatus,
  type Source,
  SourceStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { WEB_SOURCE_TYPE } from '@trove/connector-web';
import type { WriteChecks } from './catalog.ports';
import { guardedWrite } from './guarded-write';

/** One project with one source; either can be marked as the deletion marks them. */
class FakeOwners implements WriteChecks {
  project: Project = { id: 'p1', name: 'Docs', status: ProjectStatus.ACTIVE, createdAt: '2026-01-01' };
  source: Source = {
    id: 's1',
    projectId: 'p1',
    type: WEB_SOURCE_TYPE,
    name: 'site',
    status: SourceStatus.ACTIVE,
    config: { url: 'https://docs.example.com/', maxPages: 10 },
    createdAt: '2026-01-01',
    updatedAt: '2026-01-01',
  };
  checked: string[] = [];

  async requireActiveProject(id: string): Promise<Project> {
    this.checked.push(`project ${id}`);
    if (this.project.status === ProjectStatus.DELETING) {
      throw new TroveError(TroveErrorCode.ProjectDeleting, `project ${id} is being deleted`);
    }
    return this.project;
  }

  async requireActiveSource(id: string): Promise<Source> {
    this.checked.push(`source ${id}`);
    if (this.source.status === SourceStatus.REMOVING) {
      throw new TroveError(TroveErrorCode.SourceNotFound, `source ${id} is being removed`);
    }
    await this.requireActiveProject(this.source.projectId);
    return this.source;
  }
}

describe('guardedWrite', () => {
  it('keeps the write when the owner is still active afterwards', async () => {
    const owners = new FakeOwners();
    const undone: string[] = [];
    const written = await guardedWrite(
      owners,
      { projectId: 'p1' },
      async () => 'doc-1',
      async (id) => undone.push(id),
    );
    expect(written).toBe('doc-1');
    expect(owners.checked).toEqual(['project p1']);
    expect(undone).toEqual([]);
  });

  it("undoes the write and throws PROJECT_DELETING when the project's deletion started meanwhile", async () => {
    const owners = new FakeOwners();
    const undone: [string, unknown][] = [];
    const write = guardedWrite(
      owners,
      { projectId: 'p1' },
      async () => {
        owners.project = { ...owners.project, status: ProjectStatus.DELETING };
        return 'doc-1';
      },
      async (id, refusal) => undone.push([id, refusal]),
    );
    await expect(write).rejects.toMatchObject({ code: TroveErrorCode.ProjectDeleting });
    expect(undone).toEqual([['doc-1', expect.objectContaining({ code: TroveErrorCode.ProjectDeleting })]]);
  });

  it("re-checks a source's write against the source and its project", async () => {
    const owners = new FakeOwners();
    const undone: string[] = [];
    const removed = guardedWrite(
      owners,
      { sourceId: 's1' },
      async () => {
        owners.source = { ...owners.source, status: SourceStatus.REMOVING };
        return 'run-1';
      },
      async (id) => undone.push(id),
    );
    await expect(removed).rejects.toMatchObject({ code: TroveErrorCode.SourceNotFound });
    expect(owners.checked).toEqual(['source s1']);

    const other = new FakeOwners();
    const deleting = guardedWrite(
      other,
      { sourceId: 's1' },
      async () => {
        other.project = { ...other.project, status: ProjectStatus.DELETING };
        return 'run-2';
      },
      async (id) => undone.push(id),
    );
    await expect(deleting).rejects.toMatchObject({ code: TroveErrorCode.ProjectDeleting });
    expect(undone).toEqual(['run-1', 'run-2']);
  });

  it('throws the refusal, not the failure of an undo that failed', async () => {
    const owners = new FakeOwners();
    owners.project = { ...owners.project, status: ProjectStatus.DELETING };
    const write = guardedWrite(
      owners,
      { projectId: 'p1' },
      async () => 'doc-1',
      () => Promise.reject(new Error('blob store down')),
    );
    await expect(write).rejects.toMatchObject({ code: TroveErrorCode.ProjectDeleting });
  });

  it('neither re-checks nor undoes a write that failed', async () => {
    const owners = new FakeOwners();
    const undone: unknown[] = [];
    const write = guardedWrite(
      owners,
      { projectId: 'p1' },
      () => Promise.reject(new TroveError(TroveErrorCode.DocumentNameConflict, 'taken')),
      async (written) => undone.push(written),
    );
    await expect(write).rejects.toMatchObject({ code: TroveErrorCode.DocumentNameConflict });
    expect(owners.checked).toEqual([]);
    expect(undone).toEqual([]);
  });
});
