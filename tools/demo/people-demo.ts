/**
 * The quick start's people: the local provider's group `trove-demo` (the demo user is in it)
 * gets EDITOR in every project the demos made, so signing in as `demo` lands in the dashboard
 * with that access from the group. Prints the sign-in address. Exits non-zero when the provider
 * is not configured or a grant fails.
 */
import { base, gql } from './demo-client';

const PROVIDER = process.env.TROVE_OIDC_PROVIDERS?.split(',')[0]?.trim();
const GROUP = 'trove-demo';

async function main() {
  if (!PROVIDER)
    throw new Error('TROVE_OIDC_PROVIDERS is not set: the quick start configures the local provider');
  const { projects } = await gql<{ projects: { id: string; name: string }[] }>('{ projects { id name } }');
  for (const project of projects) {
    await gql('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
      input: { projectId: project.id, groupName: GROUP, groupProvider: PROVIDER, role: 'EDITOR' },
    });
  }
  console.log(
    `\nSign in as a person: ${base}/auth/login/${PROVIDER}  (user demo, password demo; the group ${GROUP} is EDITOR in ${projects.map((p) => `"${p.name}"`).join(', ')})`,
  );
}

main().catch((error: unknown) => {
  console.error(`[people demo] ${(error as Error).message}`);
  process.exit(1);
});
