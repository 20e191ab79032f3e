import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { SUPPORTED_EXTENSIONS } from '@trove/domain';

export interface CollectedFile {
  path: string;
  sizeBytes: number;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

/**
 * The files to upload for `documents add <files or folders…>`: a named file as it is (the API
 * decides its type by content), and under a named folder every file whose extension Trove reads,
 * in name order; other files are skipped with the reason. Hidden entries (`.git`, `.DS_Store`)
 * under a folder are left out silently.
 */
export async function collectFiles(
  paths: string[],
): Promise<{ files: CollectedFile[]; skipped: SkippedFile[] }> {
  const files: CollectedFile[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Set<string>();
  const add = (path: string, sizeBytes: number) => {
    if (seen.has(path)) return;
    seen.add(path);
    files.push({ path, sizeBytes });
  };

  async function walk(folder: string): Promise<void> {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
      } else if (entry.isFile()) {
        const extension = extname(entry.name).toLowerCase();
        if (SUPPORTED_EXTENSIONS.has(extension)) add(path, (await stat(path)).size);
        else
          skipped.push({
            path,
            reason: `${extension || 'no extension'}: not a type Trove reads`,
          });
      } else {
        skipped.push({ path, reason: 'not a regular file' });
      }
    }
  }

  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      skipped.push({
        path,
        reason: `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      });
      continue;
    }
    if (info.isDirectory()) await walk(path);
    else if (info.isFile()) add(path, info.size);
    else skipped.push({ path, reason: 'not a regular file' });
  }
  return { files, skipped };
}
