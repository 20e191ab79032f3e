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
  let real: string;
  try {
    real = await realpath(resolve(path));
  } catch {
    throw new TroveError(TroveErrorCode.BadRequest, `${path} does not exist on the server`, {
      permanent: true,
    });
  }
  const allowed = await Promise.all(roots.map((root) => realpath(root).catch(() => resolve(root))));
  if (!allowed.some((root) => real === root || real.startsWith(root + sep))) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${path} is outside the folders sources may read (TROVE_FOLDER_ROOTS=${roots.join(':')})`,
      { permanent: true },
    );
  }
  return real;
}
