import { z } from 'zod';
import type { SignedInIdentity } from '@trove/catalog';

/**
 * The claims Trove reads from an ID token, an access token or userinfo, after the client library
 * has checked signature, issuer, audience, expiry and nonce. Anything else in them is ignored.
 */
export const identityClaimsSchema = z
  .object({
    sub: z.string().min(1).max(255),
    email: z.string().max(320).optional(),
    email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
    name: z.string().max(300).optional(),
    preferred_username: z.string().max(300).optional(),
    given_name: z.string().max(200).optional(),
    family_name: z.string().max(200).optional(),
    picture: z.string().max(2000).optional(),
  })
  .passthrough();

export type IdentityClaims = z.infer<typeof identityClaimsSchema>;

/** Who the claims say signed in, for the user record. */
export function identityFrom(provider: string, issuer: string, claims: IdentityClaims): SignedInIdentity {
  const parts = [claims.given_name, claims.family_name].filter(Boolean).join(' ');
  const name = claims.name || parts || claims.preferred_username || claims.email || claims.sub;
  const picture = claims.picture && /^https:\/\//i.test(claims.picture) ? claims.picture : undefined;
  return {
    provider,
    issuer,
    subject: claims.sub,
    ...(claims.email ? { email: claims.email } : {}),
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name,
    ...(picture ? { pictureUrl: picture } : {}),
  };
}

/**
 * The groups a claim lists: an array of names (Keycloak's `groups`, Okta's), or a string of them;
 * full paths (`/team/docs`) keep their last part unless that would merge two groups.
 */
export function groupsFrom(claims: Record<string, unknown>, claim: string): string[] | undefined {
  const value = claims[claim];
  if (value === undefined) return undefined;
  const names = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  return [
    ...new Set(
      names
        .filter((name): name is string => typeof name === 'string')
        .map((name) => name.replace(/^\/+/, '').trim())
        .filter((name) => name.length > 0 && name.length <= 200),
    ),
  ];
}
