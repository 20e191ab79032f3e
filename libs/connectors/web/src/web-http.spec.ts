import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { TestSite } from './test-site.testing';
import { checkedLookup, UnsafeUrlError, type ResolveHost } from './url-safety';
import { WebHttp, type WebHttpOptions } from './web-http';

let site: TestSite;
beforeEach(async () => {
  site = await new TestSite().start();
});
afterEach(async () => {
  await site.stop();
});

const http = (options: Pick<WebHttpOptions, 'allowPrivateNetworks' | 'resolve'>) =>
  new WebHttp({ userAgent: 'TroveBot/0.1', requestsPerSecond: 500, timeoutMs: 5_000, ...options });

describe('WebHttp: DNS rebinding', () => {
  it('refuses the connection when the name resolves to a private address after the check', async () => {
    site.page('/', 'Home');
    let calls = 0;
    const rebinding: ResolveHost = async () => (++calls === 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const get = http({ allowPrivateNetworks: false, resolve: rebinding }).get(
      new URL(`http://localhost:${new URL(site.origin).port}/`),
      { maxBytes: 1024, robots: false },
    );

    const error = await get.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as UnsafeUrlError).code).toBe(TroveErrorCode.BadRequest);
    expect((error as UnsafeUrlError).permanent).toBe(true);
    expect(calls).toBe(2); // the check, then the connection
    expect(site.requests).toEqual([]);
  });
});

describe('checkedLookup', () => {
  const lookup = (resolved: string[], options: object, allowPrivateNetworks = false) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
      checkedLookup({ allowPrivateNetworks, resolve: async () => resolved })(
        'site.test',
        options,
        (error, address, family) => done({ error, address, family }),
      ),
    );

  it('answers one address or all of them, of the family asked for', async () => {
    const resolved = ['2606:2800:220:1::1', '93.184.216.34'];
    expect(await lookup(resolved, {})).toEqual({ error: null, address: '2606:2800:220:1::1', family: 6 });
    expect(await lookup(resolved, { family: 4 })).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect((await lookup(resolved, { all: true })).address).toEqual([
      { address: '2606:2800:220:1::1', family: 6 },
      { address: '93.184.216.34', family: 4 },
    ]);
  });

  it('fails when any address is private, unless private networks are allowed', async () => {
    const resolved = ['93.184.216.34', '169.254.169.254'];
    const { error } = await lookup(resolved, { all: true });
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect(error?.message).toMatch(/^site\.test resolved to 169\.254\.169\.254 when connecting/);
    expect((await lookup(resolved, { all: true }, true)).error).toBeNull();
  });
});

describe('WebHttp: connection failures', () => {
  it('reports a refused connection as SOURCE_UNREACHABLE, retryable, not as an internal error', async () => {
    const closed = new TestSite();
    await closed.start();
    const origin = closed.origin;
    await closed.stop(); // nothing listens on its port any more

    const error = await http({ allowPrivateNetworks: true, resolve: async () => ['127.0.0.1'] })
      .get(new URL(`${origin}/`), { maxBytes: 1024, robots: false })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TroveError);
    expect((error as TroveError).code).toBe(TroveErrorCode.SourceUnreachable);
    expect((error as TroveError).permanent).toBe(false);
    expect((error as TroveError).message).toBe(`${origin}/: ECONNREFUSED`);
  });
});
