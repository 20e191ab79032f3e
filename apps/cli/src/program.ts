import { Command, CommanderError, Option } from 'commander';
import { adminCommand } from './commands/admin.command';
import { askCommand } from './commands/ask.command';
import { backupCommand, restoreCommand } from './commands/backup.command';
import { configCommand } from './commands/config.command';
import { documentsCommand } from './commands/documents.command';
import { feedbackCommand } from './commands/feedback.command';
import { initCommand } from './commands/init.command';
import { keysCommand } from './commands/keys.command';
import { loginCommand, logoutCommand, whoamiCommand } from './commands/login.command';
import { projectsCommand } from './commands/projects.command';
import { searchCommand } from './commands/search.command';
import { sourcesCommand } from './commands/sources.command';
import { threadsCommand } from './commands/threads.command';
import type { CliIo } from './context';
import { describeError, ExitCode, exitCodeFor } from './output/exit-codes';
import { Output } from './output/output';
import { version } from '../package.json';

const EXAMPLES = `
Examples:
  $ trove init --api-url http://127.0.0.1:4000 --project Docs
  $ export TROVE_API_KEY=$(cat .trove/admin-api-key)
  $ trove documents add samples/quickstart --wait
  $ trove search "roll back a release" --limit 3
  $ trove ask "How do I roll back a release?"

Settings come from flags, then TROVE_API_URL / TROVE_API_KEY / TROVE_PROJECT, then the nearest
.trove.yaml. Without a key, trove acts as the person trove login signed in. Exit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 not authenticated or not allowed.`;

/** The `trove` command tree. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('trove')
    .description('Trove from a terminal: projects, documents, sources, search and cited answers')
    .version(version, '-V, --version')
    .addOption(new Option('--api-url <url>', 'the Trove API (default: http://127.0.0.1:4000)'))
    .addOption(
      new Option('--api-key <key>', 'an API key (better: TROVE_API_KEY, or apiKeyFile in .trove.yaml)'),
    )
    .addOption(new Option('-p, --project <project>', 'the project, by id or name'))
    .option('--json', 'machine-readable output only: no progress, no colour')
    .option('--no-color', 'no colour even on a terminal (NO_COLOR works too)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    })
    .addHelpText('after', EXAMPLES);

  for (const command of [
    initCommand(io),
    loginCommand(io),
    logoutCommand(io),
    whoamiCommand(io),
    projectsCommand(io),
    documentsCommand(io),
    sourcesCommand(io),
    searchCommand(io),
    askCommand(io),
    threadsCommand(io),
    keysCommand(io),
    adminCommand(io),
    feedbackCommand(io),
    configCommand(io),
    backupCommand(io),
    restoreCommand(io),
  ]) {
    program.addCommand(inherit(command, program));
  }
  return program;
}

/** Commands built on their own get the root's output, exit and help settings (and their subcommands too). */
function inherit(command: Command, root: Command): Command {
  command.copyInheritedSettings(root);
  for (const sub of command.commands) inherit(sub, root);
  return command;
}

/** Runs one command line; resolves to the exit code. Never prints a stack unless TROVE_DEBUG=1. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv);
    return ExitCode.Ok;
  } catch (error) {
    const code = exitCodeFor(error);
    const json = argv.includes('--json');
    const out = new Output({
      json,
      color: !argv.includes('--no-color'),
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
    });
    if (error instanceof CommanderError) {
      // Commander has already printed its usage error (or the help) on stderr.
      if (json && code !== ExitCode.Ok) {
        const message =
          error.code === 'commander.help'
            ? 'a command is missing (see --help)'
            : error.message.replace(/^error: /, '');
        out.data({ error: { code: 'USAGE', message, exitCode: code } });
      }
      return code;
    }
    const described = describeError(error);
    out.error(described.message, described.code);
    if (json)
      out.data({ error: { code: described.code ?? null, message: described.message, exitCode: code } });
    if (io.env.TROVE_DEBUG === '1' && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
    return code;
  }
}
