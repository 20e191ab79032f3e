import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { SourceTypesQuery } from '@trove/api-client';
import { action, type CliContext, type CliIo } from '../context';
import { UsageError } from '../output/exit-codes';

/**
 * `sources add-notion` and `sources add-folder`, the commands of the first source types with
 * their older flags: each is `sources add <type>` underneath, kept so that scripts keep working
 * until LEGACY_REMOVAL (delete this file then). The only place of the CLI that names a type.
 */
export const LEGACY_REMOVAL = '2027-06-30';

type SourceTypeInfo = SourceTypesQuery['sourceTypes'][number];

interface SourceAdding {
  sourceType(ctx: CliContext, name: string): Promise<SourceTypeInfo>;
  addSource(
    ctx: CliContext,
    info: SourceTypeInfo,
    name: string,
    config: Record<string, unknown>,
  ): Promise<void>;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerLegacySourceCommands(
  sources: Command,
  io: CliIo,
  { sourceType, addSource }: SourceAdding,
): void {
  sources
    .command('add-notion')
    .description(
      'add a Notion workspace (or some of its pages and databases): deprecated, use sources add notion (removed after ' +
        `${LEGACY_REMOVAL})`,
    )
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
          await addSource(ctx, await sourceType(ctx, 'NOTION'), options.name, {
            token,
            rootPageIds: options.root ?? [],
            rootDatabaseIds: options.database ?? [],
          });
        },
      ),
    );

  sources
    .command('add-folder')
    .description(
      "add a folder on the api's machine (MkDocs project, folder of files): deprecated, use sources add folder (removed after " +
        `${LEGACY_REMOVAL})`,
    )
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
      action(io, async (ctx, path: string, options: { name?: string; format?: string; siteUrl?: string }) => {
        const absolute = resolve(io.cwd, path);
        await addSource(ctx, await sourceType(ctx, 'FOLDER'), options.name ?? absolute, {
          path: absolute,
          format: options.format,
          siteUrl: options.siteUrl,
        });
      }),
    );
}
