import { Command } from 'commander';
import * as client from 'openid-client';
import { MeDocument } from '@trove/api-client';
import { discover, forgetLogin, saveLogin, storedLogin } from '../config/credentials';
import { action, type CliIo } from '../context';
import { UsageError } from '../output/exit-codes';

/** What `GET /auth/providers` says of each provider `trove login` can use. */
interface CliProvider {
  id: string;
  name: string;
  cli?: { issuer: string; clientId: string; scopes: string };
}

/**
 * `trove login`: signs the terminal in as a person, with the OAuth device authorization flow of
 * the api's identity provider (open the address shown, on any device, and sign in there). The
 * provider's tokens are kept for this API in ~/.config/trove/credentials.json (owner-only) and
 * refreshed as they expire; requests then act as the person, with their rights.
 */
export function loginCommand(io: CliIo): Command {
  return new Command('login')
    .description('sign in as yourself with the identity provider (device flow); then trove acts as you')
    .option('--provider <id>', 'the provider to sign in with (default: the only one, or the first)')
    .addHelpText(
      'after',
      `
Examples:
  $ trove login
  $ trove search "roll back a release"    # as you, with your projects
  $ trove logout`,
    )
    .action(
      action(io, async (ctx, options: { provider?: string }) => {
        const apiUrl = ctx.settings.apiUrl.value;
        const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/auth/providers`).catch(() => undefined);
        if (!response?.ok) throw new UsageError(`cannot read the sign-in providers of ${apiUrl}`);
        const { providers } = (await response.json()) as { providers: CliProvider[] };
        const usable = providers.filter((p) => p.cli && (!options.provider || p.id === options.provider));
        const provider = usable[0];
        if (!provider?.cli) {
          throw new UsageError(
            options.provider
              ? `the provider ${options.provider} does not offer trove login (TROVE_OIDC_<ID>_CLI_CLIENT_ID)`
              : 'this Trove offers no trove login: use an API key (TROVE_API_KEY) or a personal token',
          );
        }
        const config = await discover(provider.cli.issuer, provider.cli.clientId);
        // PKCE in the device flow too: the code the provider issues is of no use without the verifier.
        const verifier = client.randomPKCECodeVerifier();
        const device = await client.initiateDeviceAuthorization(config, {
          scope: provider.cli.scopes,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        });
        const address = device.verification_uri_complete ?? device.verification_uri;
        ctx.out.note(`To sign in with ${provider.name}, open ${address}`);
        ctx.out.note(
          `and confirm the code ${device.user_code} (it expires in ${Math.round(device.expires_in / 60)} minutes).`,
        );
        const tokens = await client.pollDeviceAuthorizationGrant(config, device, { code_verifier: verifier });
        saveLogin(io.env, apiUrl, {
          provider: provider.id,
          issuer: provider.cli.issuer,
          clientId: provider.cli.clientId,
          accessToken: tokens.access_token,
          ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
          ...(tokens.expires_in !== undefined && {
            expiresAt: Math.floor(Date.now() / 1000) + tokens.expires_in,
          }),
        });
        const { me } = await ctx.client.request(MeDocument);
        ctx.out.result({ signedIn: true, name: me.name, provider: provider.id }, () =>
          ctx.out.note(`Signed in to ${apiUrl} as ${me.name}.`),
        );
      }),
    );
}

export function logoutCommand(io: CliIo): Command {
  return new Command('logout').description('forget the sign-in of trove login for this API').action(
    action(io, async (ctx) => {
      const apiUrl = ctx.settings.apiUrl.value;
      const had = storedLogin(io.env, apiUrl) !== undefined && forgetLogin(io.env, apiUrl);
      ctx.out.result({ signedOut: had }, () =>
        ctx.out.note(had ? `Signed out of ${apiUrl}.` : `Not signed in to ${apiUrl}.`),
      );
    }),
  );
}

export function whoamiCommand(io: CliIo): Command {
  return new Command('whoami').description('who this terminal acts as: an API key or a person').action(
    action(io, async (ctx) => {
      const { me } = await ctx.client.request(MeDocument);
      ctx.out.result(me, () => void io.stdout.write(`${me.name} (${me.credential})\n`));
    }),
  );
}
