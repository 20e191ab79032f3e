import { describe, expect, it } from 'vitest';
import { MarkdownParser } from '@trove/parsing';
import type { TocSettings } from './slugify';
import {
  createTocSlugify,
  pymdownxSlug,
  pythonMarkdownSlug,
  tocSlugifyFromConfig,
  uniqueId,
} from './slugify';

/** Headings whose ids were checked against Python-Markdown 3 with toc + attr_list and pymdown-extensions. */
const HEADINGS = [
  '# Guide',
  '## Usage',
  '## Usage',
  '## Usage_1',
  '## Установка',
  '## Crème brûlée recipe',
  '## Explicit {#usage_5 .note}',
  '## A &amp; B <span>C</span> `code`',
  '## on_&lt;event_name&gt;()',
  '## Tabs\tand  spaces -- dashes',
  '## 1.2.3 Version (beta)',
  '## Привет, мир!',
  '## 安装 指南',
  '## Ünïcode `code` <b>bold</b>',
  '## Straße ǅ ﬁ',
  '## [Link text](http://x.org) and *em* _u_ **b**',
  '## Trailing hashes ##',
  '## email@example.com & 100% + $5',
  '## Empty-ish !!!',
  '## !!!',
  '## Ω≈ç√ ← arrows →',
].join('\n\n');

const idsWith = (settings: Partial<TocSettings>) => {
  const toc: TocSettings = {
    slugify: { kind: 'python-markdown' },
    separator: '-',
    attrList: true,
    ...settings,
  };
  return new MarkdownParser({ slugify: createTocSlugify(toc), headingAttributes: true })
    .headings(HEADINGS)
    .map((h) => h.anchor);
};

describe('MkDocs heading ids', () => {
  it("match Python-Markdown's default toc slugify, unique() numbering and attr_list ids", () => {
    expect(idsWith({})).toEqual([
      'guide',
      'usage',
      'usage_1',
      'usage_2',
      '_1',
      'creme-brulee-recipe',
      'usage_5',
      'a-b-c-code',
      'on_event_name',
      'tabs-and-spaces-dashes',
      '123-version-beta',
      '_2',
      '_3',
      'unicode-code-bold',
      'strae-dz-fi',
      'link-text-and-em-u-b',
      'trailing-hashes',
      'emailexamplecom-100-5',
      'empty-ish',
      '_4',
      'c-arrows',
    ]);
  });

  it('use the separator everywhere the default puts one', () => {
    expect(idsWith({ separator: '_' }).slice(7, 11)).toEqual([
      'a_b_c_code',
      'on_event_name',
      'tabs_and_spaces_--_dashes',
      '123_version_beta',
    ]);
  });

  it('match pymdownx slugify(case=lower), which keeps Unicode and strips tags after unescaping', () => {
    const ids = idsWith({
      slugify: { kind: 'pymdownx', case: 'lower', percentEncode: false, normalize: 'NFC' },
    });
    expect(ids.slice(4, 21)).toEqual([
      'установка',
      'crème-brûlée-recipe',
      'usage_5',
      'a--b-c-code',
      'on_',
      'tabs-and-spaces----dashes',
      '123-version-beta',
      'привет-мир',
      '安装-指南',
      'ünïcode-code-bold',
      'straße-ǆ-ﬁ',
      'link-text-and-em-u-b',
      'trailing-hashes',
      'emailexamplecom--100--5',
      'empty-ish-',
      '_1',
      'ωç--arrows-',
    ]);
  });

  it('match the cased, case-folded + percent-encoded and slugify_unicode variants', () => {
    const cased = idsWith({
      slugify: { kind: 'pymdownx', case: 'none', percentEncode: false, normalize: 'NFC' },
    });
    expect(cased.slice(11, 16)).toEqual([
      'Привет-мир',
      '安装-指南',
      'Ünïcode-code-bold',
      'Straße-ǅ-ﬁ',
      'Link-text-and-em-u-b',
    ]);
    const folded = idsWith({
      slugify: { kind: 'pymdownx', case: 'fold', percentEncode: true, normalize: 'NFC' },
    });
    expect(folded.slice(11, 15)).toEqual([
      '%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80',
      '%E5%AE%89%E8%A3%85-%E6%8C%87%E5%8D%97',
      '%C3%BCn%C3%AFcode-code-bold',
      'strasse-%C7%86-fi',
    ]);
    const unicode = idsWith({ slugify: { kind: 'python-markdown-unicode' } });
    expect(unicode.slice(11, 15)).toEqual(['привет-мир', '安装-指南', 'ünïcode-code-bold', 'straße-ǆ-ﬁ']);
  });

  it('number ids like toc unique(): counting on from an existing _n suffix', () => {
    const seen = new Set(['a', 'a_1', 'b_7']);
    expect(uniqueId('a', seen)).toBe('a_2');
    expect(uniqueId('b_7', seen)).toBe('b_8');
    expect(uniqueId('', seen)).toBe('_1');
    expect(uniqueId('c', seen)).toBe('c');
    expect(pythonMarkdownSlug('Hello World', '-')).toBe('hello-world');
    expect(pymdownxSlug('<i>Hi</i> there', '-', { case: 'lower' })).toBe('hi-there');
  });

  it('give mkdocstrings headings the object path and autorefs their title only', () => {
    const slugify = createTocSlugify(
      { slugify: { kind: 'python-markdown' }, separator: '-', attrList: true },
      { mkdocstrings: true, autorefs: true },
    );
    const seen = new Set<string>();
    expect(slugify('::: mkdocs.plugins.event_priority', seen)).toBe('mkdocs.plugins.event_priority');
    expect(slugify('Expanding the [File][mkdocs.structure.files.File] API', seen)).toBe(
      'expanding-the-file-api',
    );
  });

  it('recognise toc slugify settings from mkdocs.yml by name', () => {
    expect(tocSlugifyFromConfig('markdown.extensions.toc.slugify')).toEqual({ kind: 'python-markdown' });
    expect(tocSlugifyFromConfig('markdown.extensions.toc.slugify_unicode')).toEqual({
      kind: 'python-markdown-unicode',
    });
    expect(tocSlugifyFromConfig('pymdownx.slugs.uslugify')).toMatchObject({
      case: 'lower',
      percentEncode: false,
    });
    expect(tocSlugifyFromConfig('pymdownx.slugs.uslugify_cased_encoded')).toMatchObject({
      case: 'none',
      percentEncode: true,
    });
    expect(tocSlugifyFromConfig('pymdownx.slugs.gfm')).toMatchObject({ case: 'lower-ascii' });
    expect(
      tocSlugifyFromConfig({
        pythonName: 'pymdownx.slugs.slugify',
        args: [],
        kwds: { case: 'fold', percent_encode: true },
      }),
    ).toEqual({ kind: 'pymdownx', case: 'fold', percentEncode: true, normalize: 'NFC' });
    expect(tocSlugifyFromConfig('my.own.slugify')).toBeUndefined();
  });
});
