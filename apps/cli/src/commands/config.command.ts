import { Command } from 'commander';
import {
  RagConfigDocument,
  RagConfigInputFieldsDocument,
  UpdateRagConfigDocument,
  type UpdateRagConfigInput,
} from '@trove/api-client';
import { action, type CliContext, type CliIo } from '../context';
import { maskSecret } from '../config/settings';
import { UsageError } from '../output/exit-codes';
import { flattenSettings, formatSetting } from '../output/render';

/** This run's own settings (`cli.*`), each with where it came from; the key masked. */
function cliSettings(ctx: CliContext): Record<string, { value: string | null; from: string }> {
  const { apiUrl, apiKey, project, mode, file } = ctx.settings;
  const origin = (setting?: { from: string; detail?: string }) =>
    setting
      ? `${setting.from}${setting.detail && setting.from !== 'flag' ? ` ${setting.detail}` : ''}`
      : 'unset';
  return {
    'cli.apiUrl': { value: apiUrl.value, from: origin(apiUrl) },
    'cli.apiKey': { value: apiKey ? maskSecret(apiKey.value) : null, from: origin(apiKey) },
    'cli.project': { value: project?.value ?? null, from: origin(project) },
    'cli.mode': { value: mode.value, from: origin(mode) },
    'cli.file': { value: file ?? null, from: file ? 'found' : 'none' },
  };
}

export function configCommand(io: CliIo): Command {
  const config = new Command('config')
    .description('show this CLI’s settings and read or change the server’s retrieval and model settings')
    .addHelpText(
      'after',
      `
"cli.*" are this run's own settings (flags, TROVE_* variables, .trove.yaml) and where each came
from; the rest are the server's settings (ADMIN keys), secrets masked.

Examples:
  $ trove config get cli
  $ trove config get answers.topK
  $ trove config set answers.topK=8 answers.threshold=0.8
  $ trove config set llm.apiKey=         # empty: back to the server's environment value`,
    );

  config
    .command('get')
    .description('settings whose name starts with [key] (all without one)')
    .argument('[key]', 'e.g. cli, cli.project, answers, answers.topK, llm.apiKey')
    .action(
      action(io, async (ctx, key?: string) => {
        const matches = (name: string) => !key || name === key || name.startsWith(`${key}.`);
        const entries: [string, unknown, string?][] = Object.entries(cliSettings(ctx))
          .filter(([name]) => matches(name))
          .map(([name, { value, from }]) => [name, value, from]);
        if (!key?.startsWith('cli')) {
          const { ragConfig } = await ctx.client.request(RagConfigDocument);
          for (const [name, value] of flattenSettings(ragConfig))
            if (matches(name)) entries.push([name, value]);
        }
        if (!entries.length)
          throw new UsageError(`no setting named ${key} (trove config get lists them)`, 'UNKNOWN_SETTING');
        ctx.out.result(Object.fromEntries(entries.map(([name, value]) => [name, value])), () => {
          if (key && entries.length === 1) return ctx.out.line(formatSetting(entries[0]![1]));
          const width = Math.max(...entries.map(([name]) => name.length));
          for (const [name, value, from] of entries) {
            ctx.out.line(
              `${name.padEnd(width)}  ${formatSetting(value)}${from ? ctx.out.style.dim(`  (${from})`) : ''}`,
            );
          }
        });
      }),
    );

  config
    .command('set')
    .description('change server settings (ADMIN keys): all of them apply, or none')
    .argument('<assignments...>', 'section.key=value; an empty value goes back to the environment’s value')
    .action(
      action(io, async (ctx, assignments: string[]) => {
        const input = await buildUpdate(ctx, assignments);
        const { updateRagConfig } = await ctx.client.request(UpdateRagConfigDocument, { input });
        ctx.out.result(updateRagConfig, () => {
          ctx.out.line(
            `Updated the settings (version ${updateRagConfig.version}); overridden: ${updateRagConfig.overridden.join(', ') || 'none'}`,
          );
        });
        for (const warning of updateRagConfig.warnings) ctx.out.warn(warning);
      }),
    );
  return config;
}

/** `section.key=value` pairs as an UpdateRagConfigInput, values converted by the schema's field types. */
async function buildUpdate(ctx: CliContext, assignments: string[]): Promise<UpdateRagConfigInput> {
  const { __type } = await ctx.client.request(RagConfigInputFieldsDocument);
  const sections = new Map(
    (__type?.inputFields ?? [])
      .filter((f) => f.type.kind === 'INPUT_OBJECT')
      .map((f) => [f.name, f.type.inputFields ?? []]),
  );
  const input: Record<string, Record<string, unknown>> = {};
  for (const assignment of assignments) {
    const match = /^([A-Za-z]+)\.([A-Za-z]+)=(.*)$/s.exec(assignment);
    if (!match) throw new UsageError(`"${assignment}" is not section.key=value`, 'BAD_SETTING');
    const [, section, key, raw] = match;
    if (section === 'cli')
      throw new UsageError(
        'cli.* settings come from flags, TROVE_* variables and .trove.yaml (trove init)',
        'BAD_SETTING',
      );
    const fields = sections.get(section);
    if (!fields)
      throw new UsageError(
        `no settings section ${section} (sections: ${[...sections.keys()].join(', ')})`,
        'UNKNOWN_SETTING',
      );
    const field = fields.find((f) => f.name === key);
    if (!field)
      throw new UsageError(
        `no setting ${section}.${key} (in ${section}: ${fields.map((f) => f.name).join(', ')})`,
        'UNKNOWN_SETTING',
      );
    (input[section] ??= {})[key] = convert(
      `${section}.${key}`,
      raw,
      field.type.name ?? field.type.ofType?.name ?? 'String',
    );
  }
  return input as UpdateRagConfigInput;
}

function convert(name: string, raw: string, type: string): unknown {
  if (raw === '') return null;
  switch (type) {
    case 'Int':
    case 'Float': {
      const number = Number(raw);
      if (!Number.isFinite(number) || (type === 'Int' && !Number.isInteger(number))) {
        throw new UsageError(
          `${name} takes ${type === 'Int' ? 'a whole number' : 'a number'}, not "${raw}"`,
          'BAD_SETTING',
        );
      }
      return number;
    }
    case 'Boolean':
      if (raw !== 'true' && raw !== 'false')
        throw new UsageError(`${name} takes true or false, not "${raw}"`, 'BAD_SETTING');
      return raw === 'true';
    default:
      return raw;
  }
}
