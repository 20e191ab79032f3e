import { execFile } from 'node:child_process';

/** How the `git` CLI is run: which binary, how long a command may take, where its private HOME is. */
export interface GitCliOptions {
  binary: string;
  timeoutMs: number;
  /** A private HOME: no user configuration, credentials or known hosts of the server's user. */
  home: string;
}

export interface GitCommand {
  args: string[];
  cwd?: string;
  /** Extra environment (credentials as `GIT_CONFIG_*`, `GIT_SSH_COMMAND`): never on the command line. */
  env?: Record<string, string>;
  /** Values scrubbed from any error message (tokens, auth headers). */
  secrets?: readonly string[];
  /** Output larger than this fails the command (default 256 MB). */
  maxBytes?: number;
  /** Written to the command's standard input. */
  input?: Buffer;
}

/**
 * A git command that failed: its exit code and stderr, secrets and URL credentials scrubbed. The
 * message carries git's own words once, readable and bounded (see `stderrSummary`); `stderr`
 * keeps them whole for classifying the failure.
 */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | string | null,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    const said = stderrSummary(stderr);
    super(
      timedOut ? `git ${command} timed out` : `git ${command} failed (${exitCode})${said ? `: ${said}` : ''}`,
    );
    this.name = 'GitCommandError';
  }
}

/** Lines of stderr kept in a message, and their characters (git ends with the reason it stopped). */
const STDERR_LINES = 6;
const STDERR_LINE_CHARS = 300;
const STDERR_CHARS = 1000;

/**
 * What git said, for a message people read and the catalog stores: terminal escapes and control
 * characters removed (a hostile remote writes its `remote:` lines, NUL bytes included), each
 * line trimmed of the padding git writes over its progress output, a repeated line kept once,
 * then the last lines that fit the bounds, each clipped.
 */
export function stderrSummary(stderr: string): string {
  const lines = stderr
    // eslint-disable-next-line no-control-regex -- terminal escape sequences are the point
    .replace(/\u001B\[[0-?]*[ -/]*[@-~]/g, '')
    .split(/\r\n?|\n/)
    // eslint-disable-next-line no-control-regex -- control characters are the point
    .map((line) => clip(line.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim(), STDERR_LINE_CHARS))
    .filter(Boolean);
  const kept: string[] = [];
  let chars = 0;
  for (const line of [...new Set(lines)].reverse()) {
    if (kept.length === STDERR_LINES || chars + line.length > STDERR_CHARS) break;
    kept.unshift(line);
    chars += line.length + 3;
  }
  return kept.join(' | ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The git subcommand of an argument list (after global options such as `-C <dir>` and `-c <key=value>`). */
function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-C' || args[i] === '-c') i++;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return args[0] ?? '';
}

/**
 * Protocols git may use: never `ext::` (runs a command) or others a hostile URL or submodule
 * could name. `file` is for server-side repositories, which the definition checks against the roots.
 */
const PROTOCOLS = ['https', 'http', 'ssh', 'git', 'file'];

/**
 * Runs git with an argument array (never a shell), a timeout, and a clean environment: no
 * system or global configuration, no terminal prompts, a private HOME, only PATH inherited.
 */
export function runGit(options: GitCliOptions, command: GitCommand): Promise<Buffer> {
  const config = [
    '-c',
    'protocol.allow=never',
    ...PROTOCOLS.flatMap((p) => ['-c', `protocol.${p}.allow=always`]),
    // Symbolic links become plain files: a checked-out link could point outside the clone.
    '-c',
    'core.symlinks=false',
    '-c',
    'core.autocrlf=false',
    '-c',
    'advice.detachedHead=false',
  ];
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: options.home,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    // A host seen for the first time is trusted and remembered (in the private HOME); a changed one is refused.
    GIT_SSH_COMMAND: `ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile='${options.home}/known_hosts'`,
    ...command.env,
  };
  const name = subcommandOf(command.args);
  return new Promise((resolve, reject) => {
    const child = execFile(
      options.binary,
      [...config, ...command.args],
      {
        cwd: command.cwd,
        env,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: command.maxBytes ?? 256 * 1024 * 1024,
        encoding: 'buffer',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const timedOut = error.killed === true && error.signal === 'SIGKILL';
        const code = (error as { code?: number | string }).code ?? null;
        reject(
          new GitCommandError(name, code, scrub(stderr.toString('utf8'), command.secrets ?? []), timedOut),
        );
      },
    );
    // A command that exits before reading all its input is reported by its exit code, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(command.input);
  });
}

/** Removes secrets and `user:password@` credentials of URLs from a message. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}
