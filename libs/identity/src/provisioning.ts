import type { SignedInIdentity, SignInMatch, UserRepository } from '@trove/catalog';
import type { IdentityConfig } from '@trove/config';
import { type User, UserStatus } from '@trove/domain';
import { SignInRefusal, SignInRefusedError } from './oidc-provider';

export type UserDirectory = Pick<
  UserRepository,
  'matchSignIn' | 'syncProviderGroups' | 'listGroups' | 'createLocalGroup' | 'addMember'
>;

/**
 * Who a provider's sign-in is in Trove: the user with that issuer and subject, a person made ahead
 * with that (verified) email, or, with just-in-time provisioning, a new user with no access until
 * granted (or the default group's). Their provider groups follow the groups claim. A deactivated
 * person is refused.
 */
export class Provisioning {
  constructor(
    private readonly users: UserDirectory,
    private readonly config: Pick<IdentityConfig, 'provisioning' | 'defaultGroup'>,
  ) {}

  async signedIn(identity: SignedInIdentity, groups: string[] | undefined): Promise<SignInMatch> {
    const match = await this.users.matchSignIn(identity, this.config.provisioning === 'jit');
    if (!match) {
      throw new SignInRefusedError(
        SignInRefusal.NotInvited,
        `${identity.email ?? identity.name} has no Trove account: ask an administrator to add them (sign-in is by invitation)`,
      );
    }
    this.refuseDeactivated(match.user);
    if (groups !== undefined) await this.users.syncProviderGroups(match.user.id, identity.provider, groups);
    if (match.created && this.config.defaultGroup) await this.joinDefaultGroup(match.user);
    return match;
  }

  refuseDeactivated(user: User): void {
    if (user.status === UserStatus.DEACTIVATED) {
      throw new SignInRefusedError(SignInRefusal.Deactivated, `${user.name} is deactivated in Trove`);
    }
  }

  private async joinDefaultGroup(user: User): Promise<void> {
    const name = this.config.defaultGroup!;
    const group =
      (await this.users.listGroups()).find((g) => g.provider === undefined && g.name === name) ??
      (await this.users
        .createLocalGroup(name)
        .catch(async () =>
          (await this.users.listGroups()).find((g) => g.provider === undefined && g.name === name)!,
        ));
    await this.users.addMember(group.id, user.id);
  }
}
