import { describe, expect, it } from 'vitest';
import { type SecretSealer, SourceDefinitions } from '@trove/domain';
import { webSourceDefinition } from './web.definition';
import { WEB_SOURCE_TYPE } from './web-source';

const seal: SecretSealer = (plain) => ({ sealed: plain, hint: '…' });
// Host names resolve without DNS: a public name, and one pointing at a private address.
const resolve = async (host: string) => (host === 'intranet.test' ? ['10.0.0.8'] : ['93.184.216.34']);
const registry = (allowPrivateNetworks = false) =>
  new SourceDefinitions(
    [webSourceDefinition({ allowPrivateNetworks, defaultMaxPages: 250, resolve })],
    [WEB_SOURCE_TYPE],
  );

describe('the web source definition', () => {
  it('normalises the URL and applies the default page limit', async () => {
    expect(
      await registry().configure(WEB_SOURCE_TYPE, { url: 'https://Docs.Example.test/guide/' }, seal),
    ).toEqual({
      url: 'https://docs.example.test/guide/',
      maxPages: 250,
    });
  });

  it('refuses a private address unless allowed, naming the field', async () => {
    const refused = await registry()
      .configure(WEB_SOURCE_TYPE, { url: 'http://intranet.test/' }, seal)
      .catch((error: Error) => error.message);
    expect(refused).toMatch(/^invalid WEB source configuration: config\.url: /);
    expect(
      await registry(true).configure(WEB_SOURCE_TYPE, { url: 'http://intranet.test/' }, seal),
    ).toMatchObject({
      url: 'http://intranet.test/',
    });
  });
});
