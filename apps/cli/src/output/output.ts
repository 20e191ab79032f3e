/** A stream the CLI writes to (process.stdout / stderr, or a buffer in tests). */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

export const COLOURS: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
};

const identity = (text: string): string => text;
export const PLAIN: Style = {
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity,
};

export interface OutputOptions {
  json: boolean;
  /** false for --no-color. */
  color: boolean;
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
}

/**
 * Where a command's results and notes go. Results on stdout (JSON only with --json), notes and
 * progress on stderr; colour only on a terminal without NO_COLOR, progress only on a terminal
 * and never with --json.
 */
export class Output {
  readonly json: boolean;
  readonly style: Style;
  readonly progress: boolean;
  readonly interactive: boolean;

  constructor(private readonly options: OutputOptions) {
    this.json = options.json;
    const noColor = options.env.NO_COLOR !== undefined && options.env.NO_COLOR !== '';
    this.style = !options.json && options.color && !noColor && options.stdout.isTTY ? COLOURS : PLAIN;
    this.progress = !options.json && Boolean(options.stderr.isTTY);
    this.interactive = Boolean(options.stdout.isTTY);
  }

  get stderr(): OutStream {
    return this.options.stderr;
  }

  /** A line of the result (human output; nothing with --json). */
  line(text = ''): void {
    if (!this.json) this.options.stdout.write(`${text}\n`);
  }

  /** Result text without a newline (a streamed answer). */
  text(text: string): void {
    if (!this.json) this.options.stdout.write(text);
  }

  /** The machine result with --json. */
  data(value: unknown): void {
    if (this.json) this.options.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A human result, or the JSON one: whichever this run asked for. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.data(value);
    else human();
  }

  /** A note for people (skipped files, what a default was); on stderr, also with --json. */
  note(text: string): void {
    this.options.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.options.stderr.write(`${this.errorStyle().yellow('warning:')} ${text}\n`);
  }

  error(message: string, code?: string): void {
    const style = this.errorStyle();
    this.options.stderr.write(`${style.red('error:')} ${message}${code ? style.dim(` (${code})`) : ''}\n`);
  }

  private errorStyle(): Style {
    const noColor = this.options.env.NO_COLOR !== undefined && this.options.env.NO_COLOR !== '';
    return !this.json && this.options.color && !noColor && this.options.stderr.isTTY ? COLOURS : PLAIN;
  }
}
