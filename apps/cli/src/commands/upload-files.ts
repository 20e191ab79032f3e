import { basename } from 'node:path';
import { DocumentsDocument, type ErrorKind, TroveApiError, type DocumentsQuery } from '@trove/api-client';
import { sleep, type CliContext } from '../context';
import { collectFiles, type SkippedFile } from '../files/collect-files';
import { CliError, describeError, ExitCode } from '../output/exit-codes';
import { countBar, uploadBars } from '../output/progress';

/** What a refused upload says about that one file, not about the command or the connection. */
const FILE_FAULTS = new Set<ErrorKind>(['malformed', 'invalid', 'failure']);

export type DocumentRow = DocumentsQuery['documents']['nodes'][number];

/** What `documents add` did, file by file (also its --json output). */
export interface UploadReport {
  uploaded: { file: string; id: string; status: string }[];
  skipped: SkippedFile[];
  failed: { file: string; code?: string; message: string }[];
  /** With --wait: the uploaded documents once READY or FAILED. */
  documents?: DocumentRow[];
  fileCount: number;
  totalBytes: number;
}

/**
 * Uploads the files and folders of `paths` one after the other (with byte progress on a
 * terminal), going on past a file the api refuses or fails; with `wait`, then polls until every
 * upload is READY or FAILED. A refusal that every other file would get too (no key, the wrong
 * role, no such project, the api down) ends it at once.
 */
export async function uploadFiles(
  ctx: CliContext,
  projectId: string,
  paths: string[],
  options: { wait?: boolean; timeoutSeconds: number },
): Promise<UploadReport> {
  const { files, skipped } = await collectFiles(paths);
  for (const skip of skipped) ctx.out.note(`skipped ${skip.path}: ${skip.reason}`);
  const totalBytes = files.reduce((sum, file) => sum + file.sizeBytes, 0);
  const report: UploadReport = { uploaded: [], skipped, failed: [], fileCount: files.length, totalBytes };

  const bars = uploadBars(ctx.out.progress, ctx.io.stderr, totalBytes, files.length);
  try {
    for (const file of files) {
      bars.startFile(basename(file.path), file.sizeBytes);
      try {
        const document = await ctx.client.uploadDocument(projectId, file.path, (sent) => bars.sent(sent));
        report.uploaded.push({ file: file.path, id: document.id, status: document.status });
      } catch (error) {
        // A file the API refused or failed on is reported with the others; anything else stops.
        if (error instanceof TroveApiError && !FILE_FAULTS.has(error.kind)) throw error;
        report.failed.push({ file: file.path, ...describeError(error) });
      } finally {
        bars.endFile();
      }
    }
  } finally {
    bars.stop();
  }

  if (options.wait && report.uploaded.length) {
    const ids = new Set(report.uploaded.map((u) => u.id));
    report.documents = await waitForDocuments(ctx, projectId, ids, options.timeoutSeconds);
    for (const document of report.documents.filter((d) => d.status === 'FAILED')) {
      report.failed.push({
        file: document.fileName ?? document.id,
        code: document.error?.code,
        message: `indexing failed: ${document.error?.message ?? 'unknown error'}`,
      });
    }
  }
  return report;
}

/** Polls the project's documents until every one of `ids` is READY or FAILED (or gone). */
async function waitForDocuments(
  ctx: CliContext,
  projectId: string,
  ids: Set<string>,
  timeoutSeconds: number,
): Promise<DocumentRow[]> {
  const bar = countBar(
    ctx.out.progress,
    ctx.io.stderr,
    'indexing  [{bar}] {value}/{total} | {ready} ready, {failed} failed',
    { ready: 0, failed: 0 },
  );
  const deadline = Date.now() + timeoutSeconds * 1000;
  try {
    for (;;) {
      const mine = (await allDocuments(ctx, projectId)).filter((d) => ids.has(d.id));
      const ready = mine.filter((d) => d.status === 'READY').length;
      const failed = mine.filter((d) => d.status === 'FAILED').length;
      bar.update(ready + failed, mine.length, { ready, failed });
      // A document removed meanwhile is no longer listed: nothing to wait for.
      if (ready + failed >= mine.length) return mine;
      if (Date.now() > deadline) {
        throw new CliError(
          `${mine.length - ready - failed} documents were still indexing after ${timeoutSeconds} s`,
          ExitCode.Failure,
          'TIMEOUT',
        );
      }
      await sleep(1000);
    }
  } finally {
    bar.stop();
  }
}

async function allDocuments(ctx: CliContext, projectId: string): Promise<DocumentRow[]> {
  const rows: DocumentRow[] = [];
  let after: string | null | undefined;
  do {
    const { documents } = await ctx.client.request(DocumentsDocument, { projectId, first: 500, after });
    rows.push(...documents.nodes);
    after = documents.pageInfo.hasNextPage ? documents.pageInfo.endCursor : null;
  } while (after);
  return rows;
}
