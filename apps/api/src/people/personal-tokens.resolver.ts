import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuditAction, type PersonalTokenRecord, Permission, type Principal } from '@trove/domain';
import { maskedPersonalToken, PersonalTokens } from '@trove/identity';
import { CurrentPrincipal, Requires } from '../access/access.decorators';
import { CreatedPersonalTokenModel, CreatePersonalTokenInput, PersonalTokenModel } from './people.model';

/**
 * A person's own access tokens, for scripts and agents: each acts as them, with their rights as
 * they are when it is used. Only people have them; only a signed-in person (not a token) makes one.
 */
@Resolver(() => PersonalTokenModel)
export class PersonalTokensResolver {
  constructor(@Inject(PersonalTokens) private readonly tokens: PersonalTokens) {}

  @Query(() => [PersonalTokenModel], { description: 'Your personal tokens, newest first (revoked ones too)' })
  @Requires(Permission.READ, undefined, { caller: 'person' })
  async personalTokens(@CurrentPrincipal() principal: Principal) {
    return (await this.tokens.list(principal)).map(toModel);
  }

  @Mutation(() => CreatedPersonalTokenModel, {
    description: 'A new personal token; the secret is in this answer only',
  })
  @Requires(Permission.READ, undefined, { caller: 'signed-in person', audit: AuditAction.TokenCreated })
  async createPersonalToken(
    @Args('input') input: CreatePersonalTokenInput,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { token, secret } = await this.tokens.create(principal, input);
    return { token: toModel(token), secret };
  }

  @Mutation(() => PersonalTokenModel, { description: 'Revokes one of your tokens at once' })
  @Requires(Permission.READ, undefined, { caller: 'person', audit: AuditAction.TokenRevoked })
  async revokePersonalToken(
    @Args('id', { type: () => ID }) id: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return toModel(await this.tokens.revoke(principal, id));
  }
}

function toModel(token: PersonalTokenRecord): PersonalTokenModel {
  return {
    id: token.id,
    name: token.name,
    prefix: maskedPersonalToken(token.id),
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
    revokedAt: token.revokedAt,
  };
}
