import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { action, type CliIo } from '../context';
import { DEFAULT_API_URL, parseSearchMode } from '../config/settings';
import { TROVE_YAML, writeTroveYaml, type TroveYaml } from '../config/trove-yaml';

interface InitOptions {
  mode?: string;
  apiKeyFile?: string;
  force?: boolean;
}

export function initCommand(io: CliIo): Command {
  return new Command('init')
    .description(
      `write ${TROVE_YAML} in this folder (API URL, project, search mode) for trove runs here and below`,
    )
    .option('--mode <mode>', 'default search mode: HYBRID, KEYWORD or VECTOR')
    .option(
      '--api-key-file <path>',
      'a file holding the API key (relative to the folder); the key itself never goes in',
    )
    .option('--force', `replace an existing ${TROVE_YAML}`)
    .addHelpText(
      'after',
      `
Asks for what the flags leave out when run on a terminal; asks nothing otherwise.

Examples:
  $ trove init --api-url http://127.0.0.1:4000 --project Docs
  $ trove init --project Docs --mode KEYWORD --api-key-file ~/.config/trove/key --force`,
    )
    .action(
      action(io, async (ctx, options: InitOptions) => {
        const { globals } = ctx;
        const settings: TroveYaml = {
          apiUrl: globals.apiUrl ?? io.env.TROVE_API_URL ?? undefined,
          project: globals.project ?? io.env.TROVE_PROJECT ?? undefined,
          mode: options.mode ? parseSearchMode(options.mode) : undefined,
          apiKeyFile: options.apiKeyFile,
        };
        const nothingGiven = !globals.apiUrl && !globals.project && !options.mode && !options.apiKeyFile;
        if (nothingGiven && io.stdin.isTTY && io.stdout.isTTY && !ctx.out.json) {
          const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream });
          // Lines are read through the iterator, which buffers them: typed-ahead (or pasted)
          // answers are not lost between questions. End of input keeps the defaults.
          const lines = rl[Symbol.asyncIterator]();
          const ask = async (prompt: string): Promise<string> => {
            io.stdout.write(prompt);
            const next = await lines.next();
            return next.done ? '' : String(next.value).trim();
          };
          try {
            const url = await ask(`API URL [${settings.apiUrl ?? DEFAULT_API_URL}]: `);
            settings.apiUrl = url || settings.apiUrl || DEFAULT_API_URL;
            const project = await ask(
              `Project (id or name)${settings.project ? ` [${settings.project}]` : ''}: `,
            );
            settings.project = project || settings.project;
            const mode = await ask('Search mode (HYBRID, KEYWORD, VECTOR) [HYBRID]: ');
            settings.mode = mode ? parseSearchMode(mode) : undefined;
          } finally {
            rl.close();
          }
        }
        settings.apiUrl ??= DEFAULT_API_URL;
        const written = Object.fromEntries(
          Object.entries(settings).filter(([, value]) => value !== undefined),
        ) as TroveYaml;
        const path = join(io.cwd, TROVE_YAML);
        writeTroveYaml(path, written, Boolean(options.force));
        ctx.out.result({ path, settings: written }, () => {
          ctx.out.line(`Wrote ${path}`);
          for (const [key, value] of Object.entries(written)) ctx.out.line(`  ${key}: ${value}`);
          if (!written.apiKeyFile)
            ctx.out.line(ctx.out.style.dim('The API key comes from TROVE_API_KEY or --api-key.'));
        });
      }),
    );
}
