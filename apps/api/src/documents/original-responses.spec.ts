import { describe, expect, it } from 'vitest';
import {
  entityTag,
  lastModified,
  ORIGINALS_CONTENT_SECURITY_POLICY,
  originalHeaders,
  planRange,
} from './original-responses';

const stat = { sizeBytes: 1000, modifiedAt: new Date('2026-03-04T05:06:07.890Z') };

describe('planRange', () => {
  it('serves one byte range as asked: first, middle, suffix, open-ended, clipped at the end', () => {
    expect(planRange(stat, { range: 'bytes=0-99' })).toEqual({
      kind: 'partial',
      range: { start: 0, end: 99 },
    });
    expect(planRange(stat, { range: 'bytes=500-500' })).toEqual({
      kind: 'partial',
      range: { start: 500, end: 500 },
    });
    expect(planRange(stat, { range: 'bytes=-10' })).toEqual({
      kind: 'partial',
      range: { start: 990, end: 999 },
    });
    expect(planRange(stat, { range: 'bytes=995-' })).toEqual({
      kind: 'partial',
      range: { start: 995, end: 999 },
    });
    expect(planRange(stat, { range: 'bytes=990-5000' })).toEqual({
      kind: 'partial',
      range: { start: 990, end: 999 },
    });
  });

  it('answers a range wholly past the end, or of an empty file, as unsatisfiable', () => {
    expect(planRange(stat, { range: 'bytes=1000-' })).toEqual({ kind: 'unsatisfiable' });
    expect(planRange(stat, { range: 'bytes=2000-3000' })).toEqual({ kind: 'unsatisfiable' });
    expect(planRange({ ...stat, sizeBytes: 0 }, { range: 'bytes=0-' })).toEqual({ kind: 'unsatisfiable' });
  });

  it('sends the whole file without a Range, for a malformed one, another unit, or several ranges', () => {
    expect(planRange(stat, {})).toEqual({ kind: 'whole' });
    expect(planRange(stat, { range: 'bytes=abc' })).toEqual({ kind: 'whole' });
    expect(planRange(stat, { range: 'items=0-5' })).toEqual({ kind: 'whole' });
    expect(planRange(stat, { range: 'bytes=0-9,500-509' })).toEqual({ kind: 'whole' });
    // Overlapping ranges are one range.
    expect(planRange(stat, { range: 'bytes=0-9,5-19' })).toEqual({
      kind: 'partial',
      range: { start: 0, end: 19 },
    });
  });

  it('honours If-Range only for this version: its ETag or its Last-Modified date', () => {
    const range = 'bytes=0-9';
    const partial = { kind: 'partial', range: { start: 0, end: 9 } };
    expect(planRange(stat, { range, 'if-range': entityTag(stat) })).toEqual(partial);
    expect(planRange(stat, { range, 'if-range': lastModified(stat) })).toEqual(partial);
    expect(planRange(stat, { range, 'if-range': '"another-version"' })).toEqual({ kind: 'whole' });
    expect(planRange(stat, { range, 'if-range': `W/${entityTag(stat)}` })).toEqual({ kind: 'whole' });
    expect(planRange(stat, { range, 'if-range': 'Wed, 04 Mar 2026 05:06:08 GMT' })).toEqual({
      kind: 'whole',
    });
    expect(planRange(stat, { range, 'if-range': 'yesterday' })).toEqual({ kind: 'whole' });
  });
});

describe('entityTag', () => {
  it('changes with the size and with the time of the stored file', () => {
    expect(entityTag(stat)).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(entityTag({ ...stat, sizeBytes: 1001 })).not.toBe(entityTag(stat));
    expect(entityTag({ ...stat, modifiedAt: new Date(stat.modifiedAt.getTime() + 1) })).not.toBe(
      entityTag(stat),
    );
  });
});

describe('originalHeaders', () => {
  it('lets nothing run, load from elsewhere, submit, navigate or frame', () => {
    expect(ORIGINALS_CONTENT_SECURITY_POLICY).toBe(
      "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(originalHeaders('text/plain', 'a.txt')).toMatchObject({
      'Content-Security-Policy': ORIGINALS_CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Accept-Ranges': 'bytes',
    });
  });

  it('shows text, JSON and PDF inline and makes anything a browser would render actively a download', () => {
    const of = (type: string) => originalHeaders(type, 'f')['Content-Disposition']!.split(';')[0];
    expect(of('text/plain')).toBe('inline');
    expect(of('text/markdown')).toBe('inline');
    expect(of('application/pdf')).toBe('inline');
    expect(of('application/vnd.trove.parsed+json')).toBe('inline');
    for (const type of [
      'text/html',
      'TEXT/HTML; charset=utf-8',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'application/epub+zip',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/octet-stream',
    ]) {
      expect(of(type), type).toBe('attachment');
    }
  });

  it('names the file in UTF-8 and types text with its charset', () => {
    expect(originalHeaders('text/markdown', 'Über uns.md')).toMatchObject({
      'Content-Type': 'text/markdown; charset=utf-8',
      'Content-Disposition': "inline; filename*=UTF-8''%C3%9Cber%20uns.md",
    });
    expect(originalHeaders('application/vnd.trove.parsed+json', 'page.json')['Content-Type']).toBe(
      'application/json; charset=utf-8',
    );
  });
});
