import { Command, InvalidArgumentError } from 'commander';
import { SearchDocument } from '@trove/api-client';
import { action, positiveInt, type CliIo } from '../context';
import { parseSearchMode } from '../config/settings';
import type { SearchModeName } from '../config/trove-yaml';
import { renderSearchResult } from '../output/render';

function modeOption(value: string): SearchModeName {
  try {
    return parseSearchMode(value);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

function expandOption(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 10)
    throw new InvalidArgumentError('--expand must be a whole number from 0 to 10.');
  return number;
}

export function searchCommand(io: CliIo): Command {
  return new Command('search')
    .description(
      'hybrid (BM25 + vector) search of the project; hits with their heading path and citation link',
    )
    .argument('<query>', 'what to look for, in any language')
    .option('--mode <mode>', 'HYBRID, KEYWORD or VECTOR (default: .trove.yaml mode, else HYBRID)', modeOption)
    .option('--limit <n>', 'hits, 1 to 100 (default 5)', positiveInt('--limit', 100), 5)
    .option('--expand <n>', 'read around each hit: its ±n neighbouring chunks', expandOption, 0)
    .addHelpText(
      'after',
      `
Examples:
  $ trove search "roll back a release"
  $ trove search "rollback" --mode KEYWORD --limit 3 --expand 1
  $ trove search "как откатить релиз" --json | jq '.hits[0].citationUrl'`,
    )
    .action(
      action(
        io,
        async (ctx, query: string, options: { mode?: SearchModeName; limit: number; expand: number }) => {
          const { search } = await ctx.client.request(SearchDocument, {
            input: {
              projectId: await ctx.projectId(),
              query,
              mode: options.mode ?? ctx.settings.mode.value,
              limit: options.limit,
              expand: options.expand,
            },
          });
          ctx.out.result(search, () => {
            for (const line of renderSearchResult(search, ctx.out.style)) ctx.out.line(line);
          });
        },
      ),
    );
}
