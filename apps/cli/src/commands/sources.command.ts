import { Command, Option } from 'commander';
import {
  CancelSyncRunDocument,
  AddSourceDocument,
  configFields,
  describeField,
  kebabCase,
  SourcesDocument,
  SourceTypesDocument,
  type SourceTypesQuery,
  SyncRunDocument,
  SyncRunsDocument,
  SyncSourceDocument,
  TroveApiError,
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
import { registerLegacySourceCommands } from './legacy-source-commands';
import { configFromFlags, fieldFlag, parseConfigArgument, typeFlagsCommand } from './source-flags';
import { TroveErrorCode } from '@trove/domain';

type SourceTypeInfo = SourceTypesQuery['sourceTypes'][number];

export function sourcesCommand(io: CliIo): Command {
  const sources = new Command('sources')
    .description("the project's sources (Notion, folders, web sites, …): add, sync, follow runs")
    .addHelpText(
      'after',
      `
Examples:
  $ trove sources types
  $ trove sources add web --name Docs --url https://docs.example.com/ --max-pages 200
  $ trove sources add folder --name Handbook --path /srv/docs/handbook
  $ trove sources add notion --name Wiki --token-env NOTION_TOKEN --root-page-ids https://www.notion.so/Onboarding-0123…
  $ trove sources add web --name Docs --config @web-source.json
  $ trove sources sync Handbook --wait
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
    .command('types')
    .description('the source types the API knows, with the fields of each (the flags of sources add)')
    .action(
      action(io, async (ctx) => {
        const { sourceTypes } = await ctx.client.request(SourceTypesDocument);
        ctx.out.result(sourceTypes, () => {
          for (const info of sourceTypes) {
            ctx.out.line(
              `${ctx.out.style.bold(info.type.toLowerCase())}  ${info.label}: ${info.description}`,
            );
            for (const field of configFields(info.configSchema, info.secretFields)) {
              ctx.out.line(`  ${fieldFlag(field) ?? '(--config only)'}  ${describeField(field)}`);
            }
            ctx.out.line();
          }
        });
      }),
    );

  sources
    .command('add')
    .description(
      'add a source of any type (see sources types); its fields as flags, or as JSON with --config',
    )
    .argument('[type]', 'the source type, e.g. web (trove sources types lists them)')
    .argument('[flags...]', "the type's own flags: trove sources add <type> --help lists them")
    .option('--name <name>', 'a name for the source')
    .option('--config <json>', "the type's configuration as a JSON object, or @file.json; flags override it")
    .allowUnknownOption()
    .helpOption(false)
    .addOption(new Option('-h, --help', "this help, or with a type: the type's flags"))
    .action(
      action(
        io,
        async (
          ctx,
          type: string | undefined,
          rest: string[],
          options: { name?: string; config?: string; help?: boolean },
        ) => {
          const command = addCommand(sources);
          if (!type) {
            if (options.help) return void command.outputHelp();
            throw new UsageError('which type? trove sources add <type> (trove sources types lists them)');
          }
          const info = await sourceType(ctx, type);
          const fields = configFields(info.configSchema, info.secretFields);
          const flags = typeFlagsCommand(`trove sources add ${info.type.toLowerCase()}`, fields, command)
            .description(`add a ${info.label} source: ${info.description}`)
            .option('--name <name>', 'a name for the source (required)')
            .option(
              '--config <json>',
              'the configuration as a JSON object, or @file.json; flags override it',
            );
          if (options.help) return void flags.outputHelp();
          flags.parse(rest, { from: 'user' });
          if (!options.name) throw new UsageError('--name is required: a name for the source');
          const config = await configFromFlags(
            fields,
            flags.opts(),
            parseConfigArgument(options.config, io.cwd),
            {
              env: io.env,
              readStdin: () => readAll(io.stdin),
            },
          );
          await addSource(ctx, info, options.name, config);
        },
      ),
    );

  registerLegacySourceCommands(sources, io, { sourceType, addSource });

  sources
    .command('sync')
    .description('start a sync of a source; --wait follows it with its page counts')
    .argument('<source>', 'the source, by id or name')
    .addOption(
      new Option(
        '--mode <mode>',
        'INCREMENTAL (changed items only), FULL (re-read everything, re-ingest what changed) or REBUILD (re-ingest and re-embed everything)',
      )
        .choices(['INCREMENTAL', 'FULL', 'REBUILD'])
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
    .command('cancel')
    .description('stop a running sync: what it ingested stays, the next sync does the rest')
    .argument('<run>', 'the run id (trove sources runs <source>)')
    .action(
      action(io, async (ctx, runId: string) => {
        const { cancelSyncRun: run } = await ctx.client.request(CancelSyncRunDocument, { id: runId });
        ctx.out.result(run, () => ctx.out.line(renderSyncSummary(run, ctx.out.style)));
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

/** The `sources add` command (its help is drawn by hand, with a type's flags when one is named). */
function addCommand(sources: Command): Command {
  return sources.commands.find((command) => command.name() === 'add')!;
}

/** A type the API knows, named in any case (`web`, `WEB`); an unknown one lists the known ones. */
async function sourceType(ctx: CliContext, name: string): Promise<SourceTypeInfo> {
  const { sourceTypes } = await ctx.client.request(SourceTypesDocument);
  const match = sourceTypes.find((info) => info.type.toLowerCase() === name.toLowerCase());
  if (!match) {
    const known = sourceTypes.map((info) => info.type.toLowerCase()).join(', ');
    throw new UsageError(`unknown source type "${name}"; the API knows ${known}`, 'UNKNOWN_SOURCE_TYPE');
  }
  return match;
}

/**
 * Adds the source; a configuration the API refuses is shown field by field (the flag to fix
 * each), and the command exits 2.
 */
async function addSource(
  ctx: CliContext,
  info: SourceTypeInfo,
  name: string,
  config: Record<string, unknown>,
): Promise<void> {
  const defined = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  try {
    const { addSource: added } = await ctx.client.request(AddSourceDocument, {
      input: { projectId: await ctx.projectId(), type: info.type, name, config: defined },
    });
    ctx.out.result(added, () => {
      const secrets = added.secrets.map((secret) => ` (${secret.field} ${secret.hint})`).join('');
      ctx.out.line(
        `Added ${info.label} source ${ctx.out.style.bold(added.name)} ${added.id}${secrets}; trove sources sync ${added.id} --wait`,
      );
    });
  } catch (error) {
    if (!(error instanceof TroveApiError) || error.problems.length === 0) throw error;
    const lines = error.problems.map((problem) => `  ${problemLine(problem.field)}: ${problem.message}`);
    throw new UsageError(`the ${info.label} source was not added:\n${lines.join('\n')}`, error.code);
  }
}

/** A field the API names (`config.maxPages`) as the flag that sets it: `maxPages (--max-pages)`. */
export function problemLine(field: string): string {
  const name = field.replace(/^config\./, '');
  if (name === 'type' || name === 'config' || name.includes(',')) return name;
  return `${name} (--${kebabCase(name.split('.')[0])})`;
}

/** Everything on standard input, as text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
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
      if (!syncRun) throw new NotFoundError(`no sync run ${runId}`, TroveErrorCode.SyncRunNotFound);
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
