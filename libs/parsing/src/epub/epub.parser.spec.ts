import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { ParsedBlock, ParsedDocument } from '@trove/domain';
import { TroveErrorCode } from '@trove/domain';
import { buildZip, patchEntry, type FixtureEntry } from '../archive/zip-fixtures.testing';
import { EPUB_MEDIA_TYPE, EpubParser } from './epub.parser';
import { sharedDocuments } from '@trove/testing';

/** Real books, read in place (never copied into the repository). */
const BOOKS = sharedDocuments('epub');

const parser = new EpubParser();
const parse = (data: Buffer, fileName = 'book.epub') =>
  parser.parse({ fileName, mediaType: EPUB_MEDIA_TYPE, data });
const parseBook = (name: string) => parse(readFileSync(`${BOOKS}/${name}`), name);

/** Chapters in the order their blocks come, each once per run. */
function chapterOrder(doc: ParsedDocument, pick: (b: ParsedBlock) => string | undefined = (b) => b.chapter) {
  const order: (string | undefined)[] = [];
  for (const block of doc.blocks) if (order[order.length - 1] !== pick(block)) order.push(pick(block));
  return order;
}

const blockWith = (doc: ParsedDocument, text: string) => {
  const block = doc.blocks.find((b) => b.text.includes(text));
  if (!block) throw new Error(`no block contains ${text}`);
  return block;
};

describe('EpubParser on real books', () => {
  it('Alice (EPUB3 nav, one chapter per file)', async () => {
    const doc = await parseBook('alice-in-wonderland-epub3.epub');
    expect(doc.title).toBe("Alice's Adventures in Wonderland");
    expect(doc.metadata).toMatchObject({ creator: 'Lewis Carroll', language: 'en-US' });
    expect(chapterOrder(doc)).toEqual([
      'Title Page',
      'Down The Rabbit-Hole',
      'The Pool Of Tears',
      'A Caucus-Race And A Long Tale',
      'The Rabbit Sends In A Little Bill',
      'Advice From A Caterpillar',
      'Pig And Pepper',
      'A Mad Tea-Party',
      "The Queen's Croquet Ground",
      'Who Stole The Tarts?',
      "Alice's Evidence",
    ]);
    // The chapter's own <h2> repeats the TOC title: it is not in the path twice.
    expect(blockWith(doc, 'Curiouser and curiouser!')).toMatchObject({
      chapter: 'The Pool Of Tears',
      headingPath: ['The Pool Of Tears'],
      anchor: 'chapter_002.xhtml#pgepubid00005',
    });
    expect(blockWith(doc, 'Alice was beginning to get very tired of sitting by her sister')).toMatchObject({
      chapter: 'Down The Rabbit-Hole',
    });
    // cover.xhtml and toc.xhtml are linear="no" and not in the TOC.
    expect(
      doc.blocks.some((b) => b.anchor?.startsWith('cover.xhtml') || b.anchor?.startsWith('toc.xhtml')),
    ).toBe(false);
  });

  it('Purvis, Poetry (Standard Ebooks: many TOC entries pointing into one file by fragment)', async () => {
    const doc = await parseBook('purvis-poetry-standardebooks.epub');
    expect(doc.title).toBe('Poetry');
    expect(doc.metadata).toMatchObject({ creator: 'Sarah Louisa Forten Purvis', language: 'en-US' });
    expect(chapterOrder(doc)).toEqual([
      'Titlepage',
      'Imprint',
      'The Grave of the Slave',
      'The Slave Girl’s Address to Her Mother',
      'Past Joys',
      'Prayer',
      'The Slave',
      'The Farewell',
      'A Mother’s Grief',
      'To the Hibernia',
      'Life',
      'The Separation',
      'My Country',
      'Hours of Childhood',
      'An Appeal to Woman',
      'The Slave Girl’s Farewell',
      'A Prayer',
      'Colophon',
      'Uncopyright',
    ]);
    const grave = blockWith(doc, 'The cold storms of winter shall chill him no more,');
    expect(grave).toMatchObject({
      chapter: 'The Grave of the Slave',
      headingPath: ['The Grave of the Slave'],
      anchor: 'text/poetry.xhtml#the-grave-of-the-slave',
    });
    // Verse lines stay on their own lines.
    expect(grave.text).toContain('chill him no more,\nHis woes and his sorrows');
    expect(blockWith(doc, 'O, speed thee! speed thee! gallant bark,')).toMatchObject({
      chapter: 'To the Hibernia',
      headingPath: ['To the Hibernia'],
      anchor: 'text/poetry.xhtml#to-the-hibernia',
    });
  });

  it('Winter Sports in Switzerland (EPUB2 NCX, nested entries, chapters spanning files)', async () => {
    const doc = await parseBook('winter-sports-in-switzerland-epub2.epub');
    expect(doc.title).toBe('Winter Sports in Switzerland');
    expect(doc.metadata).toMatchObject({ creator: 'E. F. Benson', language: 'en' });
    expect(chapterOrder(doc, (b) => b.headingPath[0]).filter((c) => c?.startsWith('CHAPTER'))).toEqual([
      'CHAPTER I THE SUN-SEEKER',
      'CHAPTER II RINKS AND SKATERS',
      'CHAPTER III TEES AND CRAMPITS',
      'CHAPTER IV TOBOGGANING',
      'CHAPTER V ICE-HOCKEY',
      'CHAPTER VI SKI-ING',
      'CHAPTER VII NOTES ON WINTER RESORTS',
      'CHAPTER VIII FOR PARENTS AND GUARDIANS',
    ]);
    expect(blockWith(doc, 'There is an amazingly silly proverb')).toMatchObject({
      chapter: 'CHAPTER I THE SUN-SEEKER',
      headingPath: ['CHAPTER I THE SUN-SEEKER'],
      anchor: '9010142969167985858_60153-h-0.htm.html#pgepubid00011',
    });
    // A nested NCX entry: book → chapter → section.
    expect(blockWith(doc, '(a) A forward outside three on each foot')).toMatchObject({
      chapter: 'THIRD-CLASS TEST',
      headingPath: ['CHAPTER II RINKS AND SKATERS', 'THIRD-CLASS TEST'],
      anchor: '9010142969167985858_60153-h-2.htm.html#pgepubid00055',
    });
    // Chapter II starts in file 1 and runs on into file 2 before its first sub-entry.
    const spill = doc.blocks.find((b) => b.anchor?.startsWith('9010142969167985858_60153-h-2'))!;
    expect(spill).toMatchObject({
      chapter: 'CHAPTER II RINKS AND SKATERS',
      anchor: '9010142969167985858_60153-h-2.htm.html',
    });
  });
});

const CONTAINER =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
  '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

interface FixtureBook {
  manifest: string;
  spine: string;
  files: Record<string, string>;
  container?: string | null;
  extra?: FixtureEntry[];
}

function opf({ manifest, spine }: FixtureBook): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">' +
    '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>' +
    '<dc:title>Field Guide</dc:title><dc:creator>A. Author</dc:creator><dc:creator>B. Author</dc:creator>' +
    `<dc:language>de</dc:language></metadata><manifest>${manifest}</manifest>${spine}</package>`
  );
}

function book(fixture: FixtureBook): Promise<Buffer> {
  return buildZip([
    { path: 'mimetype', data: 'application/epub+zip', compress: false },
    ...(fixture.container === null
      ? []
      : [{ path: 'META-INF/container.xml', data: fixture.container ?? CONTAINER }]),
    { path: 'OEBPS/content.opf', data: opf(fixture) },
    ...Object.entries(fixture.files).map(([path, data]) => ({ path: `OEBPS/${path}`, data })),
    ...(fixture.extra ?? []),
  ]);
}

const xhtml = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head><body>${body}</body></html>`;
const item = (id: string, href: string, extra = '') =>
  `<item id="${id}" href="${href}" media-type="application/xhtml+xml"${extra}/>`;

/** Two chapters; the second has two TOC sub-entries pointing into it by fragment. */
const guide: FixtureBook = {
  manifest:
    item('nav', 'nav.xhtml', ' properties="nav"') +
    item('notes', 'notes.xhtml') +
    item('c1', 'text/one.xhtml') +
    item('c2', 'text/two%20parts.xhtml') +
    item('c2b', 'text/two-cont.xhtml'),
  spine:
    '<spine><itemref idref="notes" linear="no"/><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c2b"/></spine>',
  files: {
    'nav.xhtml': xhtml(
      '<nav epub:type="landmarks"><ol><li><a href="text/one.xhtml">Start</a></li></ol></nav>' +
        '<nav epub:type="toc"><h1>Contents</h1><ol>' +
        '<li><a href="text/one.xhtml">Birds</a></li>' +
        '<li><span>Mammals</span><ol>' +
        '<li><a href="text/two%20parts.xhtml#bats">Bats</a></li>' +
        '<li><a href="text/two%20parts.xhtml#moles">Moles <em>and</em> voles</a></li>' +
        '</ol></li></ol></nav>',
    ),
    'notes.xhtml': xhtml('<p>Never read: non-linear and not in the TOC.</p>'),
    'text/one.xhtml': xhtml(
      '<section><h1 id="birds">Birds</h1><p>Birds fly.</p><h2 id="owls">Owls</h2><p>Owls hunt at night.</p></section>',
    ),
    'text/two parts.xhtml': xhtml(
      '<h1>Mammals</h1><p>Mammals are warm.</p>' +
        '<section id="bats"><h2>Bats</h2><p>Bats echolocate.</p><h3 id="fruit">Fruit bats</h3><p>They eat fruit.</p></section>' +
        '<section id="moles"><h2>Moles and voles</h2><p>Moles dig.</p></section>',
    ),
    'text/two-cont.xhtml': xhtml('<p>Voles also dig.</p>'),
  },
};

describe('EpubParser on generated books', () => {
  it('maps blocks to TOC entries by file and fragment, with the headings below the TOC level', async () => {
    const doc = await parse(await book(guide), 'guide.epub');
    expect(doc.title).toBe('Field Guide');
    expect(doc.metadata).toEqual({ title: 'Field Guide', creator: 'A. Author, B. Author', language: 'de' });
    expect(doc.warnings).toBeUndefined();
    expect(doc.blocks.map((b) => [b.text, b.chapter, b.headingPath.join(' > '), b.anchor])).toEqual([
      ['Birds fly.', 'Birds', 'Birds', 'text/one.xhtml#birds'],
      ['Owls hunt at night.', 'Birds', 'Birds > Owls', 'text/one.xhtml#owls'],
      // Before the first fragment entry: the TOC level without a link of its own that encloses it.
      ['Mammals are warm.', 'Mammals', 'Mammals', 'text/two%20parts.xhtml'],
      ['Bats echolocate.', 'Bats', 'Mammals > Bats', 'text/two%20parts.xhtml#bats'],
      ['They eat fruit.', 'Bats', 'Mammals > Bats > Fruit bats', 'text/two%20parts.xhtml#fruit'],
      ['Moles dig.', 'Moles and voles', 'Mammals > Moles and voles', 'text/two%20parts.xhtml#moles'],
      ['Voles also dig.', 'Moles and voles', 'Mammals > Moles and voles', 'text/two-cont.xhtml'],
    ]);
  });

  it('falls back to the EPUB2 NCX when there is no nav document', async () => {
    const ncx =
      '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>' +
      '<navPoint id="a" playOrder="1"><navLabel><text>Part One</text></navLabel><content src="text/one.xhtml"/>' +
      '<navPoint id="b" playOrder="2"><navLabel><text>Owls</text></navLabel><content src="text/one.xhtml#owls"/></navPoint>' +
      '</navPoint></navMap></ncx>';
    const doc = await parse(
      await book({
        manifest:
          item('c1', 'text/one.xhtml') +
          '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
        spine: '<spine toc="ncx"><itemref idref="c1"/></spine>',
        files: { 'toc.ncx': ncx, 'text/one.xhtml': guide.files['text/one.xhtml'] },
      }),
    );
    expect(doc.blocks.map((b) => [b.chapter, b.headingPath.join(' > ')])).toEqual([
      ['Part One', 'Part One > Birds'],
      ['Owls', 'Part One > Owls'],
    ]);
  });

  it('reads a book without a table of contents, with a warning', async () => {
    const doc = await parse(
      await book({
        manifest: item('c1', 'one.xhtml'),
        spine: '<spine><itemref idref="c1"/></spine>',
        files: {
          'one.xhtml': xhtml('<h1>Only</h1><p>Text.</p>'),
        },
      }),
    );
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Text.', headingPath: ['Only'], anchor: 'one.xhtml' },
    ]);
    expect(doc.warnings).toEqual(['the book has no table of contents: blocks have no chapter']);
  });

  it('refuses broken books with a clear reason', async () => {
    const cases: [Promise<Buffer>, string, RegExp][] = [
      [
        book({ ...guide, container: null }),
        'PARSE_FAILED',
        /is not an EPUB: META-INF\/container\.xml is missing/,
      ],
      [
        book({ ...guide, container: CONTAINER.replace('OEBPS/content.opf', 'OEBPS/missing.opf') }),
        'CORRUPT_DOCUMENT',
        /the package document OEBPS\/missing\.opf named in META-INF\/container\.xml is not in the archive/,
      ],
      [
        book({ ...guide, spine: '<spine><itemref idref="c1"/><itemref idref="ghost"/></spine>' }),
        'CORRUPT_DOCUMENT',
        /the spine refers to "ghost", which the manifest does not list/,
      ],
      [
        book({
          ...guide,
          manifest: guide.manifest + item('lost', 'lost.xhtml'),
          spine: '<spine><itemref idref="lost"/></spine>',
        }),
        'CORRUPT_DOCUMENT',
        /the spine item OEBPS\/lost\.xhtml is not in the archive/,
      ],
      [book({ ...guide, spine: '<spine></spine>' }), 'CORRUPT_DOCUMENT', /the package has no spine/],
      [
        book({
          ...guide,
          files: {
            ...guide.files,
            'text/one.xhtml': xhtml('<nav><p>x</p></nav>'),
            'text/two parts.xhtml': xhtml(''),
            'text/two-cont.xhtml': xhtml(' '),
          },
        }),
        'EMPTY_DOCUMENT',
        /has no text content in its spine/,
      ],
    ];
    cases.push([Promise.resolve(Buffer.alloc(0)), 'EMPTY_DOCUMENT', /^broken\.epub is empty \(0 bytes\)$/]);
    for (const [data, code, message] of cases) {
      await expect(parse(await data, 'broken.epub')).rejects.toMatchObject({
        code,
        permanent: true,
        message: expect.stringMatching(message),
      });
    }
  });

  it('refuses DRM-encrypted content but accepts obfuscated fonts', async () => {
    const encryption = (uri: string) =>
      '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
      `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const drm = await book({
      ...guide,
      extra: [{ path: 'META-INF/encryption.xml', data: encryption('OEBPS/text/one.xhtml') }],
    });
    await expect(parse(drm, 'locked.epub')).rejects.toMatchObject({
      code: TroveErrorCode.EncryptedDocument,
      message: expect.stringMatching(
        /^locked\.epub is DRM-protected: 1 of its 4 content documents are encrypted/,
      ),
    });
    const fonts = await book({
      ...guide,
      extra: [{ path: 'META-INF/encryption.xml', data: encryption('OEBPS/fonts/serif.otf') }],
    });
    await expect(parse(fonts)).resolves.toMatchObject({ title: 'Field Guide' });
  });

  it('goes through safe-zip: zip-slip, truncated and bomb archives are refused', async () => {
    const slip = patchEntry(
      await book({ ...guide, extra: [{ path: 'xx/evil.xhtml', data: 'x' }] }),
      'xx/evil.xhtml',
      { name: '../evil.xhtml' },
    );
    await expect(parse(slip)).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
    const whole = await book(guide);
    await expect(parse(whole.subarray(0, whole.length - 100))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
    const bomb = await book({
      ...guide,
      extra: [{ path: 'OEBPS/zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }],
    });
    await expect(parse(bomb)).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
  });
});
