import { randomUUID } from 'node:crypto';
import { FolderFormat, type Source, SourceStatus, SourceType } from '@trove/domain';

/** A folder source of the project, ACTIVE, as the catalog's tests create them (`overrides` win). */
export function folderSource(projectId: string, overrides: Record<string, unknown> = {}): Source {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    projectId,
    type: SourceType.FOLDER,
    name: 'docs',
    status: SourceStatus.ACTIVE,
    config: { format: FolderFormat.FILES, path: '/srv/docs' },
    createdAt: now,
    updatedAt: now,
    ...overrides,
  } as Source;
}
