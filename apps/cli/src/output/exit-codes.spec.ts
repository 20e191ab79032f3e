import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { TroveApiError } from '@trove/api-client';
import { CliError, describeError, ExitCode, exitCodeFor, NotFoundError, UsageError } from './exit-codes';

describe('exitCodeFor', () => {
  it.each([
    ['an unauthenticated request', new TroveApiError('no key', 'UNAUTHENTICATED', 401), ExitCode.Auth],
    ['a forbidden one', new TroveApiError('viewer', 'FORBIDDEN', 403), ExitCode.Auth],
    ['an unknown project', new TroveApiError('no project', 'PROJECT_NOT_FOUND', 404), ExitCode.NotFound],
    [
      'an unknown document (GraphQL, 200)',
      new TroveApiError('no doc', 'DOCUMENT_NOT_FOUND', 200),
      ExitCode.NotFound,
    ],
    ['a malformed request', new TroveApiError('limit 1-100', 'BAD_REQUEST', 400), ExitCode.Usage],
    ['a bad GraphQL input', new TroveApiError('bad', 'BAD_USER_INPUT', 200), ExitCode.Usage],
    ['a conflict', new TroveApiError('exists', 'DOCUMENT_CONFLICT', 409), ExitCode.Failure],
    ['an unsupported file', new TroveApiError('png', 'UNSUPPORTED_MEDIA_TYPE', 415), ExitCode.Failure],
    ['an unreachable api', new TroveApiError('down', 'NETWORK'), ExitCode.Failure],
    ['a server failure', new TroveApiError('oops', 'INTERNAL', 500), ExitCode.Failure],
    ['a usage error of the CLI', new UsageError('no project'), ExitCode.Usage],
    ['a missing record the CLI found', new NotFoundError('no source named x'), ExitCode.NotFound],
    ['a CLI failure', new CliError('2 files failed'), ExitCode.Failure],
    ['an unknown option', new CommanderError(1, 'commander.unknownOption', 'unknown'), ExitCode.Usage],
    ['a group without its command', new CommanderError(1, 'commander.help', '(outputHelp)'), ExitCode.Usage],
    ['--help', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), ExitCode.Ok],
    ['a bug', new TypeError('x is undefined'), ExitCode.Failure],
  ])('%s', (_label, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });
});

describe('describeError', () => {
  it("names the API's message and code, and nothing of a stack", () => {
    const described = describeError(new TroveApiError('no project 42', 'PROJECT_NOT_FOUND', 404));
    expect(described).toEqual({ message: 'no project 42', code: 'PROJECT_NOT_FOUND' });
  });
});
