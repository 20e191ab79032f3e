import { describe, expect, it } from 'vitest';
import { Output, type OutStream } from './output';

function stream(isTTY: boolean): OutStream & { text: string } {
  return {
    isTTY,
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

function output(options: { json?: boolean; tty?: boolean; env?: NodeJS.ProcessEnv; color?: boolean } = {}) {
  const stdout = stream(options.tty ?? true);
  const stderr = stream(options.tty ?? true);
  const out = new Output({
    json: options.json ?? false,
    color: options.color ?? true,
    stdout,
    stderr,
    env: options.env ?? {},
  });
  return { out, stdout, stderr };
}

describe('Output', () => {
  it('colours and shows progress on a terminal only', () => {
    expect(output().out.style.green('x')).toBe('\u001b[32mx\u001b[39m');
    expect(output().out.progress).toBe(true);
    const piped = output({ tty: false }).out;
    expect(piped.style.green('x')).toBe('x');
    expect(piped.progress).toBe(false);
  });

  it('honours NO_COLOR and --no-color', () => {
    expect(output({ env: { NO_COLOR: '1' } }).out.style.red('x')).toBe('x');
    expect(output({ color: false }).out.style.red('x')).toBe('x');
    expect(output({ env: { NO_COLOR: '1' } }).out.progress).toBe(true);
  });

  it('with --json prints the JSON result only: no text, no colour, no progress', () => {
    const { out, stdout } = output({ json: true });
    out.line('human');
    out.text('streamed');
    out.result({ a: 1 }, () => out.line('human result'));
    expect(JSON.parse(stdout.text)).toEqual({ a: 1 });
    expect(out.progress).toBe(false);
    expect(out.style.bold('x')).toBe('x');
  });

  it('writes notes and errors to stderr, with the code', () => {
    const { out, stdout, stderr } = output({ tty: false });
    out.note('skipped logo.png');
    out.error('no project x', 'PROJECT_NOT_FOUND');
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('skipped logo.png\nerror: no project x (PROJECT_NOT_FOUND)\n');
  });
});
