import { CommanderError } from 'commander';
import { TroveApiError } from '@trove/api-client';

/** What `trove` exits with; scripts branch on these (documented in docs/cli.md). */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  NotFound: 3,
  Auth: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI itself detects, with the exit code it means and an optional stable code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Failure,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command line is wrong (a missing project, a malformed `section.key=value`, a bad .trove.yaml). */
export class UsageError extends CliError {
  constructor(message: string, code = 'USAGE') {
    super(message, ExitCode.Usage, code);
  }
}

export class NotFoundError extends CliError {
  constructor(message: string, code = 'NOT_FOUND') {
    super(message, ExitCode.NotFound, code);
  }
}

/** The exit code of whatever ended a command. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
      ? ExitCode.Ok
      : ExitCode.Usage;
  }
  if (error instanceof TroveApiError) {
    switch (error.kind) {
      case 'auth':
      case 'forbidden':
        return ExitCode.Auth;
      case 'not-found':
        return ExitCode.NotFound;
      case 'malformed':
        // The API refused the request itself: the command line asked for something invalid.
        return ExitCode.Usage;
      case 'invalid':
      case 'unavailable':
      case 'failure':
        return ExitCode.Failure;
    }
  }
  return ExitCode.Failure;
}

/** One line for the terminal: the message and, when there is one, the stable code. */
export function describeError(error: unknown): { message: string; code?: string } {
  if (error instanceof TroveApiError || error instanceof CliError) {
    return { message: error.message, code: error.code };
  }
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}
