import { Logger, type Provider } from '@nestjs/common';
import { AuditRecorder, AuditRetention } from '@trove/audit';
import type { AuditRepository, SessionRepository, UserRepository } from '@trove/catalog';
import { auditSchema, type ApiConfig, identitySchema, SecretBox } from '@trove/config';
import {
  CookieSigner,
  IdentityProviders,
  OAuthTokenAuthenticator,
  PersonalTokens,
  Provisioning,
  SessionAuthenticator,
  SignInFlow,
} from '@trove/identity';
import { AUDIT_LOG, SESSIONS, USERS } from '../core/catalog.providers';
import { CONFIG, SECRETS } from '../core/tokens';

/** Where browsers and providers reach this api (redirect URLs, protected-resource metadata). */
export function publicUrlOf(config: Pick<ApiConfig, 'api'>): string {
  return (config.api.publicUrl ?? `http://${config.api.host}:${config.api.port}`).replace(/\/+$/, '');
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Whether session cookies carry `Secure`: always over https; over plain http only when asked
 * (TROVE_SECURE_COOKIES=true), since `auto` leaves it off where the public URL is plain http on
 * loopback (a local install) and a browser would drop the cookie.
 */
export function secureCookies(config: ApiConfig): boolean {
  const identity = config.identity ?? identitySchema.parse({});
  if (identity.secureCookies !== 'auto') return identity.secureCookies === 'true';
  const url = new URL(publicUrlOf(config));
  return url.protocol === 'https:' || !LOOPBACK.has(url.hostname);
}

/** Everything needed to sign people in is built from config here; none of it needs a provider to answer at start-up. */
export interface PeopleWiring {
  identity: ReturnType<typeof identitySchema.parse>;
  providers: IdentityProviders;
  /** Unset without TROVE_SECRET_KEY (then there are no providers either: config refuses that). */
  signer?: CookieSigner;
  box?: SecretBox;
}

export const PEOPLE_WIRING = Symbol('PEOPLE_WIRING');

/** The api's people and audit providers (AccessModule registers and exports them). */
export const PEOPLE_PROVIDERS: Provider[] = [
  {
    provide: PEOPLE_WIRING,
    useFactory: (config: ApiConfig, box: SecretBox | undefined): PeopleWiring => {
      const identity = config.identity ?? identitySchema.parse({});
      const key = config.secrets.key as string | undefined;
      return {
        identity,
        providers: new IdentityProviders(identity, publicUrlOf(config)),
        ...(key && { signer: new CookieSigner(key), box }),
      };
    },
    inject: [CONFIG, SECRETS],
  },
  {
    provide: AuditRecorder,
    useFactory: (config: ApiConfig, audit: AuditRepository) =>
      new AuditRecorder(audit, config.audit ?? auditSchema.parse({}), (line) =>
        new Logger('Audit').warn(line),
      ),
    inject: [CONFIG, AUDIT_LOG],
  },
  {
    provide: AuditRetention,
    // Started once the api is up (audit/audit-retention.starter.ts): the tables exist by then.
    useFactory: (config: ApiConfig, audit: AuditRepository) =>
      new AuditRetention(audit, config.audit ?? auditSchema.parse({}), (line) =>
        new Logger('Audit').log(line),
      ),
    inject: [CONFIG, AUDIT_LOG],
  },
  {
    provide: Provisioning,
    useFactory: (wiring: PeopleWiring, users: UserRepository) => new Provisioning(users, wiring.identity),
    inject: [PEOPLE_WIRING, USERS],
  },
  {
    provide: PersonalTokens,
    useFactory: (sessions: SessionRepository, users: UserRepository) => new PersonalTokens(sessions, users),
    inject: [SESSIONS, USERS],
  },
  {
    provide: OAuthTokenAuthenticator,
    useFactory: (wiring: PeopleWiring, provisioning: Provisioning, users: UserRepository) =>
      new OAuthTokenAuthenticator(wiring.providers, provisioning, users),
    inject: [PEOPLE_WIRING, Provisioning, USERS],
  },
  {
    provide: SessionAuthenticator,
    useFactory: (
      wiring: PeopleWiring,
      sessions: SessionRepository,
      users: UserRepository,
      audit: AuditRecorder,
    ) =>
      wiring.signer && wiring.box
        ? new SessionAuthenticator(
            sessions,
            users,
            wiring.providers,
            wiring.signer,
            wiring.box,
            audit,
            wiring.identity,
          )
        : undefined,
    inject: [PEOPLE_WIRING, SESSIONS, USERS, AuditRecorder],
  },
  {
    provide: SignInFlow,
    useFactory: (
      wiring: PeopleWiring,
      provisioning: Provisioning,
      sessions: SessionRepository,
      audit: AuditRecorder,
      config: ApiConfig,
    ) =>
      wiring.signer && wiring.box
        ? new SignInFlow(
            wiring.providers,
            provisioning,
            sessions,
            wiring.signer,
            wiring.box,
            audit,
            wiring.identity,
            { secure: secureCookies(config) },
          )
        : undefined,
    inject: [PEOPLE_WIRING, Provisioning, SESSIONS, AuditRecorder, CONFIG],
  },
];
