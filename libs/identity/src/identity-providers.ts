import type { IdentityConfig } from '@trove/config';
import { OidcProvider, SignInRefusal, SignInRefusedError } from './oidc-provider';

/** The path the provider sends people back to. */
export function callbackPath(providerId: string): string {
  return `/auth/callback/${providerId}`;
}

/**
 * The configured identity providers, by id. Built once at start-up from TROVE_OIDC_PROVIDERS
 * (config validation has refused unknown shapes and duplicates); discovery happens on first use.
 */
export class IdentityProviders {
  private readonly providers = new Map<string, OidcProvider>();

  constructor(config: Pick<IdentityConfig, 'providers' | 'clockToleranceSeconds'>, publicUrl: string) {
    for (const provider of config.providers) {
      const redirect = provider.redirectUrl ?? new URL(callbackPath(provider.id), publicUrl).toString();
      this.providers.set(
        provider.id,
        new OidcProvider(provider, redirect, { clockToleranceSeconds: config.clockToleranceSeconds }),
      );
    }
  }

  list(): OidcProvider[] {
    return [...this.providers.values()];
  }

  get size(): number {
    return this.providers.size;
  }

  /** The provider, or SIGN_IN_REFUSED (UNKNOWN_PROVIDER). */
  require(id: string): OidcProvider {
    const provider = this.providers.get(id);
    if (!provider) {
      throw new SignInRefusedError(
        SignInRefusal.UnknownProvider,
        `no identity provider named ${id} is configured`,
      );
    }
    return provider;
  }

  /** The providers whose access tokens are accepted as bearer tokens. */
  bearerProviders(): OidcProvider[] {
    return this.list().filter((provider) => provider.acceptsBearerTokens);
  }
}
