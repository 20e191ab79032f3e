import { GraphQLError } from 'graphql';
import type { Context } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { SubscriptionGate } from './graphql-subscriptions';

describe('SubscriptionGate.onError', () => {
  const format = (error: GraphQLError) => new SubscriptionGate().onError({} as Context, '1', {}, [error]);

  it('gives an error raised while a subscription runs its stable code', () => {
    const revoked = new TroveError(TroveErrorCode.Unauthenticated, 'the API key was revoked');
    expect(
      format(new GraphQLError(revoked.message, { originalError: revoked, path: ['syncRunUpdates'] })),
    ).toEqual([
      {
        message: 'the API key was revoked',
        path: ['syncRunUpdates'],
        extensions: { code: 'UNAUTHENTICATED' },
      },
    ]);
  });

  it('leaves GraphQL’s own errors (validation) as they are', () => {
    expect(format(new GraphQLError('Cannot query field "nope"'))).toEqual([
      { message: 'Cannot query field "nope"' },
    ]);
  });
});
