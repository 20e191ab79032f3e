import { Command, Option } from 'commander';
import {
  ApiKeysDocument,
  CreateApiKeyDocument,
  RevokeApiKeyDocument,
  type ApiKeyRole,
} from '@trove/api-client';
import { action, type CliIo } from '../context';
import { renderTable } from '../output/render';

export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys')
    .description('API keys (ADMIN keys only): create, list, revoke')
    .addHelpText(
      'after',
      `
Examples:
  $ trove keys create --name "docs bot" --role VIEWER --projects Handbook
  $ trove keys list
  $ trove keys revoke <key-id>`,
    );

  keys
    .command('create')
    .description('make a key; its secret is shown once, store it then')
    .requiredOption('--name <name>', 'who or what uses the key')
    .addOption(
      new Option('--role <role>', 'what it may do')
        .choices(['VIEWER', 'EDITOR', 'ADMIN'])
        .makeOptionMandatory(),
    )
    .option(
      '--projects <projects>',
      'comma-separated project ids or names it reaches (default: every project)',
    )
    .action(
      action(io, async (ctx, options: { name: string; role: ApiKeyRole; projects?: string }) => {
        const refs = options.projects
          ?.split(',')
          .map((ref) => ref.trim())
          .filter(Boolean);
        const projectIds = refs ? await Promise.all(refs.map((ref) => ctx.resolveProject(ref))) : undefined;
        const { createApiKey } = await ctx.client.request(CreateApiKeyDocument, {
          input: { name: options.name, role: options.role, projectIds },
        });
        ctx.out.result(createApiKey, () => {
          const { apiKey } = createApiKey;
          const { style } = ctx.out;
          ctx.out.line(
            `Created ${apiKey.role} key ${style.bold(apiKey.name)} ${apiKey.id} (${apiKey.projectIds?.length ? `projects ${apiKey.projectIds.join(', ')}` : 'every project'})`,
          );
          ctx.out.line('');
          ctx.out.line(style.yellow('Secret, shown this once (store it now; Trove keeps only its hash):'));
          ctx.out.line('');
          ctx.out.line(`  ${style.bold(createApiKey.secret)}`);
          ctx.out.line('');
        });
      }),
    );

  keys
    .command('list')
    .description('every key with its role, projects, masked prefix and last use (never a secret)')
    .action(
      action(io, async (ctx) => {
        const { apiKeys } = await ctx.client.request(ApiKeysDocument);
        ctx.out.result(apiKeys, () => {
          const rows = apiKeys.map((k) => [
            k.id,
            k.role,
            k.prefix,
            k.revokedAt ? `revoked ${k.revokedAt}` : (k.lastUsedAt ?? 'never used'),
            k.projectIds?.length ? k.projectIds.join(',') : 'all',
            k.name,
          ]);
          for (const line of renderTable(
            ['ID', 'ROLE', 'PREFIX', 'LAST USE', 'PROJECTS', 'NAME'],
            rows,
            ctx.out.style,
          ))
            ctx.out.line(line);
        });
      }),
    );

  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<id>', 'the key id (trove keys list)')
    .action(
      action(io, async (ctx, id: string) => {
        const { revokeApiKey } = await ctx.client.request(RevokeApiKeyDocument, { id });
        ctx.out.result(revokeApiKey, () =>
          ctx.out.line(`Revoked key ${revokeApiKey.name} ${revokeApiKey.id}`),
        );
      }),
    );
  return keys;
}
