import { parseArgs } from 'node:util';
import { MAX_BATCH } from './embeddings-request';

export const DEFAULT_PORT = 8090;

export const USAGE = `usage: npm run embedder:stub -- [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--dimensions 384]
                                 [--model embedder-stub] [--delay-ms 0] [--max-batch ${MAX_BATCH}]

FOR BENCHMARKS ONLY: an OpenAI-compatible embedding server that answers at once with deterministic
hash vectors that mean nothing. Point Trove at the printed URL (provider openai) to measure the
pipeline without a model; search quality with it is meaningless.`;

/** The stub's command line, validated. */
export interface StubCommandLine {
  port: number;
  host: string;
  dimensions: number;
  model: string;
  delayMs: number;
  maxBatch: number;
}

/** A command line the stub cannot start with; `problems` lists every one. */
export class UsageError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'UsageError';
  }
}

/** Parses `argv` (without node and script); undefined for `--help`; throws {@link UsageError}. */
export function parseCommandLine(argv: string[]): StubCommandLine | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        dimensions: { type: 'string' },
        model: { type: 'string', default: 'embedder-stub' },
        'delay-ms': { type: 'string' },
        'max-batch': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError([(error as Error).message]);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const integer = (name: string, value: string | undefined, fallback: number, min: number, max: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+$/u.test(value) || n < min || n > max) {
      problems.push(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
  const options: StubCommandLine = {
    port: integer('port', values.port, DEFAULT_PORT, 0, 65535),
    host: values.host,
    dimensions: integer('dimensions', values.dimensions, 384, 1, 65536),
    model: values.model,
    delayMs: integer('delay-ms', values['delay-ms'], 0, 0, 600_000),
    maxBatch: integer('max-batch', values['max-batch'], MAX_BATCH, 1, 1_000_000),
  };
  if (options.model === '') problems.push('--model must not be empty');
  if (problems.length > 0) throw new UsageError(problems);
  return options;
}
