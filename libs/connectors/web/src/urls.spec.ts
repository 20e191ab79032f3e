import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './url-safety';
import { crawlScope, inScope, normalizeUrl, pageFileName } from './urls';

describe('normalizeUrl', () => {
  it('drops fragments and tracking parameters, sorts the rest, and resolves relative links', () => {
    expect(normalizeUrl('HTTPS://Example.COM:443/a/../b?z=1&utm_source=x&a=2&fbclid=y#top')?.href).toBe(
      'https://example.com/b?a=2&z=1',
    );
    expect(normalizeUrl('guide.html#install', 'https://example.com/docs/')?.href).toBe(
      'https://example.com/docs/guide.html',
    );
    expect(normalizeUrl('mailto:a@example.com')).toBeUndefined();
    expect(normalizeUrl('javascript:void(0)')).toBeUndefined();
  });
});

describe('crawlScope', () => {
  it('keeps a crawl in the base page’s folder on its origin', () => {
    const scope = crawlScope(new URL('https://example.com/docs'));
    expect(inScope(new URL('https://example.com/docs'), scope)).toBe(true);
    expect(inScope(new URL('https://example.com/docs/a'), scope)).toBe(true);
    expect(inScope(new URL('https://example.com/docsearch'), scope)).toBe(false);
    expect(inScope(new URL('http://example.com/docs/a'), scope)).toBe(false);
    const file = crawlScope(new URL('https://example.com/docs/intro.html'));
    expect(inScope(new URL('https://example.com/docs/other.html'), file)).toBe(true);
    expect(inScope(new URL('https://example.com/blog/'), file)).toBe(false);
  });
});

describe('pageFileName', () => {
  it('is the last path segment, or the host for a site root', () => {
    expect(pageFileName('https://example.com/docs/Getting%20started')).toBe('Getting started');
    expect(pageFileName('https://example.com/')).toBe('example.com');
  });
});

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local (metadata) and mapped addresses; allows public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});
