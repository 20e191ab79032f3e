import { basename } from 'node:path';
import { Command, Option } from 'commander';
import {
  DeleteDocumentDocument,
  DocumentDocument,
  DocumentsDocument,
  ReindexDocumentDocument,
  type DocumentStatus,
} from '@trove/api-client';
import { action, positiveInt, sleep, type CliContext, type CliIo } from '../context';
import { CliError, ExitCode, NotFoundError } from '../output/exit-codes';
import { formatBytes, renderTable } from '../output/render';
import { uploadFiles, type DocumentRow } from './upload-files';
import { SUPPORTED_EXTENSIONS, supportedFormatsText, TroveErrorCode } from '@trove/domain';

const STATUSES = ['PENDING', 'INDEXING', 'READY', 'FAILED'];
const SETTLED = new Set<DocumentStatus>(['READY', 'FAILED']);

export function documentsCommand(io: CliIo): Command {
  const documents = new Command('documents')
    .description("the project's documents: upload, list, inspect, remove, re-index")
    .addHelpText(
      'after',
      `
Examples:
  $ trove documents add notes.md handbook/ --wait
  $ trove documents list --status FAILED
  $ trove documents status <document-id>
  $ trove documents reindex <document-id>
  $ trove documents remove <document-id>`,
    );

  documents
    .command('list')
    .description("the project's documents, newest first")
    .addOption(new Option('--status <status>', 'only documents in this status').choices(STATUSES))
    .option('--source <source>', 'only documents of this source (id or name)')
    .option('--limit <n>', 'at most this many (default 50)', positiveInt('--limit', 10_000), 50)
    .action(
      action(io, async (ctx, options: { status?: DocumentStatus; source?: string; limit: number }) => {
        const projectId = await ctx.projectId();
        const sourceId = options.source ? (await ctx.resolveSource(options.source)).id : undefined;
        const rows: DocumentRow[] = [];
        let after: string | null | undefined;
        let totalCount = 0;
        do {
          const { documents: page } = await ctx.client.request(DocumentsDocument, {
            projectId,
            first: Math.min(500, options.limit - rows.length),
            after,
            status: options.status,
            sourceId,
          });
          rows.push(...page.nodes);
          totalCount = page.totalCount;
          after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        } while (after && rows.length < options.limit);
        ctx.out.result({ totalCount, nodes: rows }, () => {
          if (!rows.length) return ctx.out.line(ctx.out.style.dim('No documents.'));
          const table = rows.map((d) => [
            d.id,
            colourStatus(ctx, d.status),
            String(d.chunkCount),
            d.fileName ?? d.title ?? '',
          ]);
          for (const line of renderTable(['ID', 'STATUS', 'CHUNKS', 'NAME'], table, ctx.out.style))
            ctx.out.line(line);
          if (totalCount > rows.length)
            ctx.out.line(ctx.out.style.dim(`${rows.length} of ${totalCount} (--limit for more)`));
        });
      }),
    );

  documents
    .command('add')
    .description('upload files, and every supported file under folders (others are skipped with a note)')
    .argument('<paths...>', 'files or folders')
    .option('--wait', 'then wait until every uploaded document is READY or FAILED')
    .option('--timeout <seconds>', 'how long --wait waits (default 600)', positiveInt('--timeout'), 600)
    .addHelpText(
      'after',
      `
Trove reads ${supportedFormatsText()}, recognised by content. A file named here is
uploaded whatever its name; under a folder, the files ending in ${[...SUPPORTED_EXTENSIONS].join(' ')}.
Uploads continue past a file that fails; the failures are listed at the end and the exit code is 1.
With --wait, a document that fails to index counts as a failure too.

Examples:
  $ trove documents add report.pdf
  $ trove documents add docs/ notes/ --wait --project Handbook`,
    )
    .action(
      action(io, async (ctx, paths: string[], options: { wait?: boolean; timeout: number }) => {
        const projectId = await ctx.projectId();
        const report = await uploadFiles(ctx, projectId, paths, {
          wait: options.wait,
          timeoutSeconds: options.timeout,
        });
        const { uploaded, skipped, failed, documents: settled, fileCount, totalBytes } = report;
        ctx.out.result({ uploaded, skipped, failed, documents: settled }, () => {
          const ready = settled?.filter((d) => d.status === 'READY').length ?? 0;
          ctx.out.line(
            `Uploaded ${uploaded.length} of ${fileCount} file${fileCount === 1 ? '' : 's'} (${formatBytes(totalBytes)})` +
              (skipped.length ? `, skipped ${skipped.length}` : '') +
              (settled ? `; ${ready} READY, ${settled.length - ready} FAILED` : ''),
          );
          for (const u of uploaded) ctx.out.line(`  ${u.id}  ${basename(u.file)}`);
          if (failed.length) ctx.out.line(ctx.out.style.red(`${failed.length} failed:`));
          for (const f of failed) ctx.out.line(`  ${f.file}: ${f.message}${f.code ? ` (${f.code})` : ''}`);
        });
        if (failed.length) {
          throw new CliError(
            `${failed.length} of ${fileCount} files failed`,
            ExitCode.Failure,
            'SOME_FAILED',
          );
        }
      }),
    );

  documents
    .command('status')
    .description("a document's status, error, chunk count, warnings and timings")
    .argument('<id>', 'the document id')
    .option('--wait', 'wait until it is READY or FAILED')
    .option('--timeout <seconds>', 'how long --wait waits (default 600)', positiveInt('--timeout'), 600)
    .action(
      action(io, async (ctx, id: string, options: { wait?: boolean; timeout: number }) => {
        const deadline = Date.now() + options.timeout * 1000;
        for (;;) {
          const { document } = await ctx.client.request(DocumentDocument, { id });
          if (!document)
            throw new NotFoundError(
              `no document ${id} that this key reaches`,
              TroveErrorCode.DocumentNotFound,
            );
          if (!options.wait || SETTLED.has(document.status) || Date.now() > deadline) {
            ctx.out.result(document, () => {
              const { style } = ctx.out;
              ctx.out.line(
                `${style.bold(document.fileName ?? document.title ?? document.id)}  ${colourStatus(ctx, document.status)}`,
              );
              ctx.out.line(`  id        ${document.id}`);
              ctx.out.line(
                `  chunks    ${document.chunkCount}${document.pageCount ? `, ${document.pageCount} pages` : ''}`,
              );
              if (document.language) ctx.out.line(`  language  ${document.language}`);
              if (document.url) ctx.out.line(`  url       ${document.url}`);
              if (document.error)
                ctx.out.line(
                  `  error     ${style.red(`${document.error.message} (${document.error.code})`)}`,
                );
              for (const warning of document.warnings ?? [])
                ctx.out.line(`  warning   ${style.yellow(warning)}`);
              if (document.timings?.totalMs != null)
                ctx.out.line(`  indexed in ${document.timings.totalMs} ms`);
            });
            return;
          }
          await sleep(1000);
        }
      }),
    );

  documents
    .command('remove')
    .description('delete a document, its chunks and its original')
    .argument('<id>', 'the document id')
    .action(
      action(io, async (ctx, id: string) => {
        await ctx.client.request(DeleteDocumentDocument, { id });
        ctx.out.result({ id, removed: true }, () => ctx.out.line(`Removed document ${id}`));
      }),
    );

  documents
    .command('reindex')
    .description('parse, chunk and embed a document again')
    .argument('<id>', 'the document id')
    .action(
      action(io, async (ctx, id: string) => {
        const { reindexDocument } = await ctx.client.request(ReindexDocumentDocument, { id });
        ctx.out.result(reindexDocument, () =>
          ctx.out.line(`Re-indexing ${reindexDocument.fileName ?? id}: ${reindexDocument.status}`),
        );
      }),
    );
  return documents;
}

function colourStatus(ctx: CliContext, status: string): string {
  const { style } = ctx.out;
  return status === 'READY'
    ? style.green(status)
    : status === 'FAILED'
      ? style.red(status)
      : style.yellow(status);
}
