import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import {
  AddFolderSourceDocument,
  AddNotionSourceDocument,
  SourcesDocument,
  SyncRunDocument,
  SyncRunsDocument,
  SyncSourceDocument,
  type FolderFormat,
  type SyncMode,
} from '@trove/api-client';
import { action, positiveInt, sleep, type CliContext, type CliIo } from '../context';
import { CliError, ExitCode, NotFoundError, UsageError } from '../output/exit-codes';
import { countBar } from '../output/progress';
import {
  pagesDone,
  renderRunMotion,
  renderSyncSummary,
  renderTable,
  type SyncRunView,
} from '../output/render';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function sourcesCommand(io: CliIo): Command {
  const sources = new Command('sources')
    .description("the project's sources (Notion, folders): add, sync, follow runs")
    .addHelpText(
      'after',
      `
Examples:
  $ trove sources add-folder /srv/docs/handbook --name Handbook
  $ trove sources sync Handbook --wait
  $ NOTION_TOKEN=ntn_… trove sources add-notion --name Wiki --root https://www.notion.so/Onboarding-0123…
  $ trove sources runs Handbook`,
    );

  sources
    .command('list')
    .description("the project's sources with their status and last sync")
    .action(
      action(io, async (ctx) => {
        const { sources: list } = await ctx.client.request(SourcesDocument, {
          projectId: await ctx.projectId(),
        });
        ctx.out.result(list, () => {
          if (!list.length) return ctx.out.line(ctx.out.style.dim('No sources.'));
          const rows = list.map((s) => [s.id, s.type, s.status, s.lastSyncAt ?? 'never', s.name]);
          for (const line of renderTable(['ID', 'TYPE', 'STATUS', 'LAST SYNC', 'NAME'], rows, ctx.out.style))
            ctx.out.line(line);
        });
      }),
    );

  sources
    .command('add-notion')
    .description('add a Notion workspace (or some of its pages and databases) as a source')
    .requiredOption('--name <name>', 'a name for the source')
    .option(
      '--token <token>',
      'the integration token (default: NOTION_TOKEN; better than on the command line)',
    )
    .option(
      '--root <page>',
      'a page id or URL to sync (repeatable); none: everything shared with the integration',
      collect,
    )
    .option('--database <id>', 'a database id or URL to sync (repeatable)', collect)
    .action(
      action(
        io,
        async (ctx, options: { name: string; token?: string; root?: string[]; database?: string[] }) => {
          const token = options.token ?? io.env.NOTION_TOKEN;
          if (!token)
            throw new UsageError(
              'a Notion integration token is needed: set NOTION_TOKEN or pass --token',
              'NO_TOKEN',
            );
          const databases = options.database ?? [];
          const { addNotionSource } = await ctx.client.request(AddNotionSourceDocument, {
            input: {
              projectId: await ctx.projectId(),
              name: options.name,
              token,
              roots: [...(options.root ?? []), ...databases],
              databaseRoots: databases,
            },
          });
          ctx.out.result(addNotionSource, () =>
            ctx.out.line(
              `Added Notion source ${ctx.out.style.bold(addNotionSource.name)} ${addNotionSource.id} (token ${addNotionSource.tokenHint ?? 'set'}); trove sources sync ${addNotionSource.id} --wait`,
            ),
          );
        },
      ),
    );

  sources
    .command('add-folder')
    .description("add a folder on the api's machine (a MkDocs project, or any folder of files) as a source")
    .argument('<path>', 'the folder, inside TROVE_FOLDER_ROOTS of the api')
    .option('--name <name>', 'a name for the source (default: the folder path)')
    .addOption(
      new Option('--format <format>', 'how to read it (default AUTO)').choices([
        'AUTO',
        'MKDOCS',
        'FILES',
        'COMBINED_MARKDOWN',
      ]),
    )
    .option('--site-url <url>', 'public base URL for citations (default: mkdocs.yml site_url)')
    .action(
      action(
        io,
        async (ctx, path: string, options: { name?: string; format?: FolderFormat; siteUrl?: string }) => {
          const absolute = resolve(io.cwd, path);
          const { addFolderSource } = await ctx.client.request(AddFolderSourceDocument, {
            input: {
              projectId: await ctx.projectId(),
              name: options.name ?? absolute,
              path: absolute,
              format: options.format ?? 'AUTO',
              siteUrl: options.siteUrl,
            },
          });
          ctx.out.result(addFolderSource, () =>
            ctx.out.line(
              `Added folder source ${ctx.out.style.bold(addFolderSource.name)} ${addFolderSource.id}; trove sources sync ${addFolderSource.id} --wait`,
            ),
          );
        },
      ),
    );

  sources
    .command('sync')
    .description('start a sync of a source; --wait follows it with its page counts')
    .argument('<source>', 'the source, by id or name')
    .addOption(
      new Option('--mode <mode>', 'INCREMENTAL (changed items only) or FULL')
        .choices(['INCREMENTAL', 'FULL'])
        .default('INCREMENTAL'),
    )
    .option('--wait', 'follow the run until it ends; exit 1 if it failed')
    .option('--timeout <seconds>', 'how long --wait waits (default 1800)', positiveInt('--timeout'), 1800)
    .action(
      action(io, async (ctx, ref: string, options: { mode: SyncMode; wait?: boolean; timeout: number }) => {
        const source = await ctx.resolveSource(ref);
        const { syncSource: started } = await ctx.client.request(SyncSourceDocument, {
          id: source.id,
          mode: options.mode,
        });
        if (!options.wait) {
          ctx.out.result(started, () =>
            ctx.out.line(
              `Started ${started.mode} sync ${started.id} of ${source.name}; trove sources runs ${source.id}`,
            ),
          );
          return;
        }
        const run = await followRun(ctx, started.id, options.timeout);
        ctx.out.result(run, () => ctx.out.line(renderSyncSummary(run, ctx.out.style)));
        for (const warning of run.warnings ?? []) ctx.out.warn(warning);
        if (run.status === 'FAILED')
          throw new CliError(
            `the sync failed: ${run.error?.message ?? 'unknown error'}`,
            ExitCode.Failure,
            run.error?.code ?? 'SYNC_FAILED',
          );
      }),
    );

  sources
    .command('runs')
    .description("a source's sync runs, newest first")
    .argument('<source>', 'the source, by id or name')
    .option('--limit <n>', 'at most this many (default 10)', positiveInt('--limit', 500), 10)
    .action(
      action(io, async (ctx, ref: string, options: { limit: number }) => {
        const source = await ctx.resolveSource(ref);
        const { syncRuns } = await ctx.client.request(SyncRunsDocument, {
          sourceId: source.id,
          first: options.limit,
        });
        ctx.out.result(syncRuns, () => {
          if (!syncRuns.nodes.length) return ctx.out.line(ctx.out.style.dim('No runs yet.'));
          const rows = syncRuns.nodes.map((r) => [
            r.id,
            r.mode,
            r.status === 'RUNNING' ? `${r.status} (${renderRunMotion(r, ctx.out.style)})` : r.status,
            r.startedAt,
            `${r.progress.pagesSeen} seen, ${r.progress.pagesIngested} ingested, ${r.progress.pagesFailed} failed${r.error ? ` — ${r.error.code}` : ''}`,
          ]);
          for (const line of renderTable(['ID', 'MODE', 'STATUS', 'STARTED', 'PAGES'], rows, ctx.out.style))
            ctx.out.line(line);
        });
      }),
    );
  return sources;
}

/** Polls a sync run until it ends, with a bar of its pages on a terminal. */
async function followRun(ctx: CliContext, runId: string, timeoutSeconds: number): Promise<SyncRunView> {
  const bar = countBar(
    ctx.out.progress,
    ctx.io.stderr,
    'syncing [{bar}] {value}/{total} pages | {seen} seen, {ingested} ingested, {failed} failed | {motion}',
    {
      seen: 0,
      ingested: 0,
      failed: 0,
      motion: '',
    },
  );
  let stalled = false;
  const deadline = Date.now() + timeoutSeconds * 1000;
  try {
    for (;;) {
      const { syncRun } = await ctx.client.request(SyncRunDocument, { id: runId });
      if (!syncRun) throw new NotFoundError(`no sync run ${runId}`, 'SYNC_RUN_NOT_FOUND');
      const p = syncRun.progress;
      bar.update(pagesDone(p), p.pagesSeen, {
        seen: p.pagesSeen,
        ingested: p.pagesIngested,
        failed: p.pagesFailed,
        motion: renderRunMotion(syncRun, ctx.out.style),
      });
      // Said once per stall, also without a terminal (--json, CI logs), as the bar is not drawn there.
      if (syncRun.status === 'RUNNING' && (syncRun.health.state === 'STALLED') !== stalled) {
        stalled = !stalled;
        ctx.out.warn(
          stalled
            ? `sync run ${runId} is stalled: ${renderRunMotion(syncRun, ctx.out.style)}`
            : `sync run ${runId} moves again`,
        );
      }
      if (syncRun.status !== 'RUNNING') return syncRun;
      if (Date.now() > deadline)
        throw new CliError(
          `sync run ${runId} was still running after ${timeoutSeconds} s`,
          ExitCode.Failure,
          'TIMEOUT',
        );
      await sleep(1000);
    }
  } finally {
    bar.stop();
  }
}
