import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { type ConfigField, kebabCase } from '@trove/api-client';
import { UsageError } from '../output/exit-codes';

/** How a secret field's flags are named: `--token`, `--token-env NAME`, `--token-stdin`. */
const ENV_SUFFIX = '-env';
const STDIN_SUFFIX = '-stdin';
/** Flags of `sources add` itself, never a field's. */
const RESERVED = ['name', 'config', 'help'];

/**
 * The flags of one source type's fields, from its JSON Schema: a string or a number takes a
 * value, a boolean is `--x` / `--no-x`, an enum lists its choices, a list of strings repeats
 * (`--root-page-ids a --root-page-ids b`). A secret also reads from an environment variable
 * (`--token-env NOTION_TOKEN`) or from standard input (`--token-stdin`), so it needs no place on
 * the command line. Fields of other shapes are given in `--config` only.
 */
export function fieldOptions(fields: readonly ConfigField[]): Option[] {
  const options: Option[] = [];
  for (const field of fields) {
    // `sources add` has these flags itself: such a field is given in --config.
    if (RESERVED.includes(kebabCase(field.name))) continue;
    const flag = `--${kebabCase(field.name)}`;
    const about = [field.description, field.required ? '(required)' : undefined].filter(Boolean).join(' ');
    switch (field.kind) {
      case 'string':
        options.push(new Option(`${flag} <value>`, about));
        break;
      case 'integer':
      case 'number':
        options.push(new Option(`${flag} <n>`, about).argParser(numberParser(flag, field)));
        break;
      case 'boolean':
        options.push(new Option(flag, about));
        options.push(new Option(`--no-${kebabCase(field.name)}`, `sets ${field.name} to false`));
        break;
      case 'enum':
        options.push(new Option(`${flag} <value>`, about).choices(field.choices ?? []));
        break;
      case 'string-list':
        options.push(
          new Option(`${flag} <value>`, `${about} (repeatable)`).argParser(
            (value: string, previous: string[] = []) => [...previous, value],
          ),
        );
        break;
      case 'json':
        continue;
    }
    if (field.secret) {
      options.push(
        new Option(`${flag}${ENV_SUFFIX} <name>`, `read ${field.name} from this environment variable`),
        new Option(`${flag}${STDIN_SUFFIX}`, `read ${field.name} from standard input (its first line)`),
      );
    }
  }
  return options;
}

/** A field's flag, e.g. `--max-pages`; undefined for a field given in `--config` only. */
export function fieldFlag(field: ConfigField): string | undefined {
  if (field.kind === 'json' || RESERVED.includes(kebabCase(field.name))) return undefined;
  return `--${kebabCase(field.name)}`;
}

/** What the secret fields read from: a variable's name each, and at most one from standard input. */
export interface SecretSources {
  env: NodeJS.ProcessEnv;
  /** Standard input's text, read only when a `--<secret>-stdin` flag asks for it. */
  readStdin: () => Promise<string>;
}

/**
 * The configuration the flags give, over `base` (from `--config`): each field set by a flag
 * replaces the same field of `base`.
 */
export async function configFromFlags(
  fields: readonly ConfigField[],
  flags: Record<string, unknown>,
  base: Record<string, unknown>,
  secrets: SecretSources,
): Promise<Record<string, unknown>> {
  const config = { ...base };
  const fromStdin = fields.filter((field) => field.secret && flags[`${camel(field.name)}Stdin`]);
  if (fromStdin.length > 1) {
    throw new UsageError(
      `only one secret can come from standard input (${fromStdin.map((f) => `--${kebabCase(f.name)}${STDIN_SUFFIX}`).join(', ')})`,
    );
  }
  for (const field of fields) {
    const key = camel(field.name);
    if (flags[key] !== undefined) config[field.name] = flags[key];
    if (!field.secret) continue;
    const variable = flags[`${key}Env`];
    if (typeof variable === 'string') {
      const value = secrets.env[variable];
      if (!value) throw new UsageError(`${variable} is not set (--${kebabCase(field.name)}${ENV_SUFFIX})`);
      config[field.name] = value;
    }
    if (flags[`${key}Stdin`]) {
      const value = (await secrets.readStdin()).split(/\r?\n/)[0].trim();
      if (!value) throw new UsageError(`standard input is empty (--${kebabCase(field.name)}${STDIN_SUFFIX})`);
      config[field.name] = value;
    }
  }
  return config;
}

/**
 * `--config`'s value: a JSON object, or `@file.json` to read one from a file (relative to `cwd`).
 */
export function parseConfigArgument(value: string | undefined, cwd: string): Record<string, unknown> {
  if (value === undefined) return {};
  let text = value;
  if (value.startsWith('@')) {
    const path = resolve(cwd, value.slice(1));
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(
        `--config: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError('--config must be a JSON object, e.g. \'{"url": "https://docs.example.com/"}\'');
  }
  return parsed as Record<string, unknown>;
}

/** A command of one type's flags, parsing what `trove sources add <type>` did not know itself. */
export function typeFlagsCommand(name: string, fields: readonly ConfigField[], parent: Command): Command {
  const command = new Command(name).exitOverride().helpOption('-h, --help', 'this help');
  command.configureOutput(parent.configureOutput());
  for (const option of fieldOptions(fields)) command.addOption(option);
  return command;
}

function numberParser(flag: string, field: ConfigField) {
  return (value: string): number => {
    const number = Number(value);
    if (
      value.trim() === '' ||
      !Number.isFinite(number) ||
      (field.kind === 'integer' && !Number.isInteger(number))
    ) {
      throw new InvalidArgumentError(
        `${flag} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}.`,
      );
    }
    return number;
  };
}

/** Commander's attribute name of a flag: `max-pages` → `maxPages` (field names are camelCase already). */
function camel(name: string): string {
  return kebabCase(name).replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}
