import { Command, Option } from 'commander';
import { type ApiKeyRole, CreateUserDocument } from '@trove/api-client';
import { action, type CliIo } from '../context';

/**
 * `trove admin create <email>`: a person made ahead of their first sign-in, by default an
 * install-wide ADMIN (the first administrator of an install: run it with the admin API key). Their
 * first sign-in with that verified email links them.
 */
export function adminCommand(io: CliIo): Command {
  const admin = new Command('admin').description('people made ahead of their first sign-in (ADMIN keys)');
  admin
    .command('create')
    .description('add a person by email (default: an install-wide ADMIN); their first sign-in links them')
    .argument('<email>', 'their email at the identity provider')
    .option('--name <name>', 'shown until their first sign-in')
    .addOption(
      new Option('--role <role>', 'their install-wide role')
        .choices(['ADMIN', 'EDITOR', 'VIEWER', 'NONE'])
        .default('ADMIN'),
    )
    .action(
      action(io, async (ctx, email: string, options: { name?: string; role: ApiKeyRole | 'NONE' }) => {
        const { createUser } = await ctx.client.request(CreateUserDocument, {
          input: { email, name: options.name ?? email, role: options.role === 'NONE' ? null : options.role },
        });
        ctx.out.result(createUser, () =>
          ctx.out.note(
            `Added ${createUser.email} (${createUser.role ?? 'project roles only'}): their first sign-in links them.`,
          ),
        );
      }),
    );
  return admin;
}
