import { randomUUID } from 'node:crypto';
import { type Source, SourceStatus } from '@trove/domain';
import { FOLDER_SOURCE_TYPE, FolderFormat } from '@trove/connector-folder';

/** A folder source of the project, ACTIVE, as the catalog's tests create them (`overrides` win). */
export function folderSource(projectId: string, overrides: Record<string, unknown> = {}): Source {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    projectId,
    type: FOLDER_SOURCE_TYPE,
    name: 'docs',
    status: SourceStatus.ACTIVE,
    config: { format: FolderFormat.FILES, path: '/srv/docs' },
    createdAt: now,
    updatedAt: now,
    ...overrides,
  } as Source;
}
