import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '@trove/config';
import { CitationLinks } from './citation-links';

const config = (key = 'unit-test-admin-key-0123', linkTtlSeconds = 3600) =>
  ({
    api: {
      adminApiKey: key,
      host: '127.0.0.1',
      port: 4000,
      publicUrl: 'https://trove.example',
      linkTtlSeconds,
    },
  }) as unknown as ApiConfig;
const links = new CitationLinks(config());
const NOW = Date.parse('2026-01-01T00:00:00Z');

function signatureOf(url: string): string {
  return new URL(url).searchParams.get('sig')!;
}

describe('CitationLinks', () => {
  it('signs original paths with an expiry and keeps the place in the file', () => {
    const url = links.absolute('/v1/documents/doc-1/original#page=3', NOW)!;
    expect(url).toMatch(
      /^https:\/\/trove\.example\/v1\/documents\/doc-1\/original\?sig=[0-9a-z]+-[\w-]{32}#page=3$/,
    );
    expect(links.check('doc-1', signatureOf(url), NOW)).toBe('valid');
    expect(links.absolute('https://www.notion.so/page#block')).toBe('https://www.notion.so/page#block');
  });

  it('keeps a served original link unsigned, and signs it afresh when it is served again', () => {
    const served = links.absolute('/v1/documents/doc-1/original#page=3', NOW)!;
    expect(links.unsigned(served)).toBe('/v1/documents/doc-1/original#page=3');
    const again = links.absolute(links.unsigned(served), NOW + 7_200_000)!;
    expect(links.check('doc-1', signatureOf(again), NOW + 7_200_000)).toBe('valid');
    expect(links.unsigned('https://www.notion.so/page#block')).toBe('https://www.notion.so/page#block');
    expect(links.unsigned('https://trove.example/guide/#setup')).toBe('https://trove.example/guide/#setup');
    expect(links.unsigned(undefined)).toBeUndefined();
  });

  it('opens an original at its slide, its sheet and rows, or its CSV records (RFC 7111 row=)', () => {
    const original = (place: object) =>
      links.render({ kind: 'original', documentId: 'doc-1', ...place }, undefined, NOW)!.split('#')[1];
    expect(original({ page: 4 })).toBe('page=4');
    expect(original({ sheet: 'Q3 Budget', rowStart: 2, rowEnd: 40 })).toBe('sheet=Q3%20Budget&row=2-40');
    expect(original({ sheet: 'Sales', rowStart: 7, rowEnd: 7 })).toBe('sheet=Sales&row=7');
    expect(original({ sheet: 'Notes' })).toBe('sheet=Notes');
    expect(original({ rowStart: 2, rowEnd: 9 })).toBe('row=2-9');
  });

  it('serves only http(s) links and its own paths: any other scheme in stored data is dropped', () => {
    const source = (url: string) => ({ kind: 'source' as const, documentId: 'doc-1', url });
    for (const url of [
      'javascript:alert(document.domain)//#intro',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      '\tjava\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/page',
      'not a link',
    ]) {
      expect(links.render(source(url), undefined, NOW), url).toBeUndefined();
      expect(links.render(undefined, url, NOW), url).toBeUndefined();
      expect(links.absolute(url, NOW), url).toBeUndefined();
    }
    for (const url of [
      'https://docs.example.org/guide/#setup',
      'http://intranet.example/a',
      '/guide/setup/',
    ]) {
      expect(links.render(source(url), undefined, NOW)).toBe(url);
      expect(links.render(undefined, url, NOW)).toBe(url);
    }
    expect(links.render(undefined, '/v1/documents/doc-1/original#page=2', NOW)).toMatch(
      /^https:\/\/trove\.example\/v1\/documents\/doc-1\/original\?sig=.+#page=2$/,
    );
  });

  it('refuses a link once its time is up, and tells it apart from a forged one', () => {
    const signature = signatureOf(links.original('doc-1', NOW));
    expect(links.check('doc-1', signature, NOW + 3599_000)).toBe('valid');
    expect(links.check('doc-1', signature, NOW + 3600_000)).toBe('expired');
  });

  it('refuses forged, moved, extended or foreign signatures', () => {
    const signature = signatureOf(links.original('doc-1', NOW));
    const expires = signature.slice(0, signature.indexOf('-'));
    const mac = signature.slice(signature.indexOf('-') + 1);
    expect(links.check('doc-2', signature, NOW)).toBe('invalid');
    const later = (parseInt(expires, 36) + 86_400).toString(36);
    expect(links.check('doc-1', `${later}-${mac}`, NOW)).toBe('invalid');
    expect(links.check('doc-1', 'forged', NOW)).toBe('invalid');
    expect(links.check('doc-1', undefined, NOW)).toBe('invalid');
    const other = new CitationLinks(config('another-admin-key-456789'));
    expect(other.check('doc-1', signature, NOW)).toBe('invalid');
  });
});
