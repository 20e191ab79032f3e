import { InvalidArgumentError, type Command } from 'commander';
import { ProjectsDocument, SourcesDocument, TroveClient, type SourcesQuery } from '@trove/api-client';
import { isTroveId, TroveErrorCode } from '@trove/domain';
import { freshAccessToken } from './config/credentials';
import { resolveSettings, type CliSettings } from './config/settings';
import { NotFoundError, UsageError } from './output/exit-codes';
import { Output, type OutStream } from './output/output';
import { version } from '../package.json';

/** The process around a run: streams, environment, folder (injected by tests). */
export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The options every command accepts (declared once, on the root command). */
export interface GlobalOptions {
  apiUrl?: string;
  apiKey?: string;
  project?: string;
  json?: boolean;
  color?: boolean;
}

export type Source = SourcesQuery['sources'][number];

/** What a command runs with: its output, the resolved settings, a client, and name lookups. */
export class CliContext {
  readonly out: Output;
  private resolved?: CliSettings;
  private api?: TroveClient;

  constructor(
    readonly io: CliIo,
    readonly globals: GlobalOptions,
  ) {
    this.out = new Output({
      json: Boolean(globals.json),
      color: globals.color !== false,
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
    });
  }

  get settings(): CliSettings {
    this.resolved ??= resolveSettings(this.globals, this.io.env, this.io.cwd);
    return this.resolved;
  }

  get client(): TroveClient {
    const apiUrl = this.settings.apiUrl.value;
    this.api ??= new TroveClient({
      apiUrl,
      apiKey: this.settings.apiKey?.value,
      // Without a key: the person `trove login` signed in, if any.
      bearer: () => freshAccessToken(this.io.env, apiUrl),
      userAgent: `trove-cli/${version}`,
    });
    return this.api;
  }

  /** The project of this run (--project, TROVE_PROJECT or .trove.yaml), as an id. */
  async projectId(): Promise<string> {
    const project = this.settings.project;
    if (!project) {
      throw new UsageError(
        'no project: pass --project <id or name>, set TROVE_PROJECT, or write one into .trove.yaml (trove init)',
        'NO_PROJECT',
      );
    }
    return this.resolveProject(project.value);
  }

  /** A project named by id (used as is) or by name (case and Unicode form ignored). */
  async resolveProject(ref: string): Promise<string> {
    if (isTroveId(ref)) return ref;
    const { projects } = await this.client.request(ProjectsDocument);
    const key = nameKey(ref);
    const match = projects.find((project) => nameKey(project.name) === key);
    if (!match) {
      throw new NotFoundError(
        `no project named "${ref}" that this key reaches (trove projects list shows them)`,
        TroveErrorCode.ProjectNotFound,
      );
    }
    return match.id;
  }

  /** A source of the project named by id or by name. */
  async resolveSource(ref: string): Promise<Source> {
    const projectId = await this.projectId();
    const { sources } = await this.client.request(SourcesDocument, { projectId });
    const key = nameKey(ref);
    const match =
      sources.find((source) => source.id === ref) ?? sources.find((source) => nameKey(source.name) === key);
    if (!match) {
      throw new NotFoundError(
        `no source "${ref}" in this project (trove sources list shows them)`,
        TroveErrorCode.SourceNotFound,
      );
    }
    return match;
  }
}

function nameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}

/**
 * A commander action running `handler` with a context built from the command's options (its own
 * and the global ones). The handler gets the positional arguments, then the command's options.
 */
export function action<Args extends unknown[]>(
  io: CliIo,
  handler: (ctx: CliContext, ...args: Args) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const ctx = new CliContext(io, command.optsWithGlobals<GlobalOptions>());
    await handler(ctx, ...(args.slice(0, -1) as Args));
  };
}

/** Waits `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A whole number option, checked (commander's argParser). */
export function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1 || number > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}.`);
    }
    return number;
  };
}
