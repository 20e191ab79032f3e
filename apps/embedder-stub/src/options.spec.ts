import { describe, expect, it } from 'vitest';
import { MAX_BATCH } from './embeddings-request';
import { DEFAULT_PORT, parseCommandLine, UsageError } from './options';

describe('parseCommandLine', () => {
  it('defaults to port 8090, loopback, 384 dimensions, no delay and OpenAI’s batch limit', () => {
    expect(parseCommandLine([])).toEqual({
      port: DEFAULT_PORT,
      host: '127.0.0.1',
      dimensions: 384,
      model: 'embedder-stub',
      delayMs: 0,
      maxBatch: MAX_BATCH,
    });
  });

  it('reads every option, in both --name value and --name=value forms', () => {
    expect(
      parseCommandLine([
        '--port',
        '0',
        '--dimensions=768',
        '--model',
        'm',
        '--delay-ms',
        '25',
        '--max-batch=16',
      ]),
    ).toMatchObject({ port: 0, dimensions: 768, model: 'm', delayMs: 25, maxBatch: 16 });
  });

  it('returns undefined for --help', () => {
    expect(parseCommandLine(['--help'])).toBeUndefined();
  });

  it('lists every bad value, and refuses unknown arguments', () => {
    const problems = (argv: string[]) => {
      try {
        parseCommandLine(argv);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as UsageError).problems;
      }
      throw new Error('expected a UsageError');
    };
    expect(problems(['--port', '70000', '--dimensions', '0', '--delay-ms=-1'])).toEqual([
      '--port must be an integer from 0 to 65535, got "70000"',
      '--dimensions must be an integer from 1 to 65536, got "0"',
      '--delay-ms must be an integer from 0 to 600000, got "-1"',
    ]);
    expect(problems(['--dimension', '384'])[0]).toMatch(/Unknown option '--dimension'/);
  });
});
