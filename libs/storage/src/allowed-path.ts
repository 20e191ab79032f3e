import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { TroveError, TroveErrorCode } from '@trove/domain';

/**
 * Resolves a server-side path a folder source wants to read and checks it lies inside one of the
 * allowed roots, after following symbolic links (so a link cannot lead out of a root).
 * Throws a permanent BAD_REQUEST error with the reason otherwise.
 */
export async function resolveAllowedPath(path: string, roots: string[]): Promise<string> {
  if (roots.length === 0) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      'server-side folder sources are disabled: set TROVE_FOLDER_ROOTS (folders separated by ":") on the api and worker',
      { permanent: true },
    );
  }
  // One answer for "outside the roots" and "does not exist", so the API cannot be used to probe
  // which paths exist on the server.
  const refused = new TroveError(
    TroveErrorCode.BadRequest,
    `${path} is not an existing file or folder inside the folders sources may read (TROVE_FOLDER_ROOTS)`,
    { permanent: true },
  );
  const allowed = await Promise.all(roots.map((root) => realpath(root).catch(() => resolve(root))));
  const inside = (candidate: string) =>
    allowed.some((root) => candidate === root || candidate.startsWith(root + sep)) ||
    roots.some((root) => candidate === resolve(root) || candidate.startsWith(resolve(root) + sep));
  // Lexically outside every root: refused without touching the file system.
  if (!inside(resolve(path))) throw refused;
  let real: string;
  try {
    real = await realpath(resolve(path));
  } catch {
    throw refused;
  }
  if (!allowed.some((root) => real === root || real.startsWith(root + sep))) throw refused;
  return real;
}
