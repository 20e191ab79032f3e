import { extname } from 'node:path';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { SUPPORTED_EXTENSIONS } from '../detect';
import { DEFAULT_ZIP_LIMITS, listZip, type ZipEntryInfo, type ZipInput, type ZipLimits } from './safe-zip';

/**
 * Checks an uploaded folder archive before it is accepted, so it fails at upload rather than in
 * the worker: every check of {@link listZip} (paths, counts, sizes, ratio, overlapping entries, a
 * file that is also a folder), then at least one file Trove can index. Reads only the central
 * directory and the local headers of the archive (bytes, a file path or a byte source); returns
 * the entries.
 */
export async function checkFolderArchive(
  input: ZipInput,
  archiveName: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ZipEntryInfo[]> {
  const entries = await listZip(input, limits, archiveName);
  const usable = entries.some(
    (e) =>
      !e.isDirectory &&
      (SUPPORTED_EXTENSIONS.has(extname(e.path).toLowerCase()) || /mkdocs\.ya?ml$/.test(e.path)),
  );
  if (!usable) {
    throw new TroveError(
      TroveErrorCode.UnsupportedMediaType,
      `${archiveName} holds no supported files (PDF, EPUB, DOCX, HTML, Markdown, text)`,
    );
  }
  return entries;
}
