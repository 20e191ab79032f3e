import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedBlock, ParsedDocument } from '@trove/domain';
import { DEFAULT_DOCUMENT_LIMITS, PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { OcrPool, ocrSettingsFromEnv } from '@trove/ocr';
import { PdfParser } from './pdf.parser';
import { fixtureDocument, sharedDocuments } from '@trove/testing';

/** Shared, read-only sample PDFs; never copied into the repository. */
const PDF_DIR = sharedDocuments('pdf');

const pool = new OcrPool(ocrSettingsFromEnv());
afterAll(() => pool.close());
const parser = new PdfParser({ ocr: () => pool });
const read = (name: string) => readFileSync(join(PDF_DIR, name));
const parse = (fileName: string, data: Buffer = read(fileName)) =>
  parser.parse({ fileName, mediaType: 'application/pdf', data });

async function failure(promise: Promise<unknown>): Promise<PermanentDocumentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PermanentDocumentError);
  return error as PermanentDocumentError;
}

const blockWith = (doc: ParsedDocument, text: string): ParsedBlock => {
  const block = doc.blocks.find((b) => b.text.includes(text));
  if (!block) throw new Error(`no block contains ${JSON.stringify(text)}`);
  return block;
};
const allText = (doc: ParsedDocument) => doc.blocks.map((b) => b.text).join('\n');

describe('PdfParser', () => {
  it('declares the PDF media type', () => {
    expect(parser.mediaTypes).toEqual(['application/pdf']);
  });

  it('refuses a PDF of more pages than the page limit from its page count, before reading a page', async () => {
    const data = read('pdflatex-outline.pdf');
    const { pageCount } = await parse('pdflatex-outline.pdf', data);
    const fewer = new PdfParser({
      ocr: false,
      limits: { ...DEFAULT_DOCUMENT_LIMITS, maxPages: pageCount! - 1 },
    });
    const error = await failure(fewer.parse({ fileName: 'outline.pdf', mediaType: 'application/pdf', data }));
    expect(error.code).toBe(TroveErrorCode.ParseLimitExceeded);
    expect(error.message).toBe(
      `outline.pdf has ${pageCount} pages, over the limit of ${pageCount! - 1} pages per document (TROVE_DOCUMENT_MAX_PAGES raises it)`,
    );
    const exactly = new PdfParser({
      ocr: false,
      limits: { ...DEFAULT_DOCUMENT_LIMITS, maxPages: pageCount! },
    });
    expect(
      (await exactly.parse({ fileName: 'outline.pdf', mediaType: 'application/pdf', data })).pageCount,
    ).toBe(pageCount);
  });

  describe('generated bad input', () => {
    it('rejects zero bytes as an empty document', async () => {
      const error = await failure(parse('empty.pdf', Buffer.alloc(0)));
      expect(error.code).toBe(TroveErrorCode.EmptyDocument);
      expect(error.message).toContain('empty.pdf');
    });

    it('rejects random bytes behind a %PDF- header as corrupt', async () => {
      const noise = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256));
      const error = await failure(parse('noise.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), noise])));
      expect(error.code).toBe(TroveErrorCode.CorruptDocument);
      expect(error.message).toMatch(/^noise\.pdf cannot be opened: .*\(pdfjs: Invalid PDF structure\.\)$/);
    });

    it('rejects text that is not a PDF at all as corrupt', async () => {
      const error = await failure(parse('notes.pdf', Buffer.from('just some text')));
      expect(error.code).toBe(TroveErrorCode.CorruptDocument);
      expect(error.message).toContain('it is not a PDF (no %PDF- header)');
    });
  });

  describe('shared sample files', () => {
    it('throws nothing but PermanentDocumentError on any sample', async () => {
      const outcomes: Record<string, string> = {};
      for (const name of [
        'arabic-habibi-rtl.pdf',
        'broken-truncated-federal-register-2020-17221.pdf',
        'encrypted-libreoffice-writer-password.pdf',
        'faa-amt-handbook-sample-2col.pdf',
        'federal-register-2020-17221-3col.pdf',
        'geotopo-lecture-notes-outline.pdf',
        'google-doc-document.pdf',
        'pdflatex-forms-acroform.pdf',
        'pdflatex-outline.pdf',
        'scanned-huckfinn-c02-22-imageonly.pdf',
        'scotus-transcript-p1.pdf',
      ]) {
        try {
          const doc = await parse(name);
          outcomes[name] = `${doc.pageCount} pages`;
        } catch (error) {
          expect(error, name).toBeInstanceOf(PermanentDocumentError);
          outcomes[name] = (error as PermanentDocumentError).code;
        }
      }
      expect(outcomes).toEqual({
        'arabic-habibi-rtl.pdf': '1 pages',
        'broken-truncated-federal-register-2020-17221.pdf': TroveErrorCode.CorruptDocument,
        'encrypted-libreoffice-writer-password.pdf': TroveErrorCode.EncryptedDocument,
        'faa-amt-handbook-sample-2col.pdf': '1 pages',
        'federal-register-2020-17221-3col.pdf': '15 pages',
        'geotopo-lecture-notes-outline.pdf': '117 pages',
        'google-doc-document.pdf': '1 pages',
        'pdflatex-forms-acroform.pdf': '1 pages',
        'pdflatex-outline.pdf': '4 pages',
        'scanned-huckfinn-c02-22-imageonly.pdf': '1 pages',
        'scotus-transcript-p1.pdf': '1 pages',
      });
    }, 180_000);

    it('reports a scanned, image-only PDF as having no text layer when OCR is off', async () => {
      const error = await failure(
        new PdfParser({ ocr: false }).parse({
          fileName: 'scanned-huckfinn-c02-22-imageonly.pdf',
          mediaType: 'application/pdf',
          data: read('scanned-huckfinn-c02-22-imageonly.pdf'),
        }),
      );
      expect(error.code).toBe(TroveErrorCode.NoTextLayer);
      expect(error.message).toBe(
        'scanned-huckfinn-c02-22-imageonly.pdf: no text layer: scanned PDF, and OCR is switched off',
      );
    });

    it('reports a password-protected PDF without trying passwords', async () => {
      const error = await failure(parse('encrypted-libreoffice-writer-password.pdf'));
      expect(error.code).toBe(TroveErrorCode.EncryptedDocument);
      expect(error.message).toBe(
        'encrypted-libreoffice-writer-password.pdf is password-protected: it does not open without a password',
      );
    });

    it('reports the truncated Federal Register as corrupt: it has lost its catalog and page tree', async () => {
      const error = await failure(parse('broken-truncated-federal-register-2020-17221.pdf'));
      expect(error.code).toBe(TroveErrorCode.CorruptDocument);
      expect(error.message).toBe(
        'broken-truncated-federal-register-2020-17221.pdf cannot be opened: it looks truncated (no %%EOF at the end) (pdfjs: Invalid PDF structure.)',
      );
    });

    it('reports a valid file cut in half as corrupt', async () => {
      const whole = read('pdflatex-outline.pdf');
      const error = await failure(parse('half.pdf', whole.subarray(0, whole.length / 2)));
      expect(error.code).toBe(TroveErrorCode.CorruptDocument);
      expect(error.message).toContain('truncated');
    });

    it('keeps the readable pages of a damaged file and names the lost ones in a warning', async () => {
      // Blanking 30–40 % of the file keeps the cross-reference table but destroys pages 8–10.
      const data = Buffer.from(read('federal-register-2020-17221-3col.pdf'));
      data.fill(0x20, Math.floor(data.length * 0.3), Math.floor(data.length * 0.4));
      const doc = await parse('damaged.pdf', data);
      expect(doc.pageCount).toBe(15);
      expect(doc.warnings).toEqual([
        'pages 8, 9, 10 could not be read and are missing (Bad (uncompressed) XRef entry: 76R)',
      ]);
      const pages = new Set(doc.blocks.map((b) => b.page));
      expect([...pages].sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15]);
    }, 30_000);

    describe('pdflatex-outline.pdf (outline with named destinations)', () => {
      let doc: ParsedDocument;
      beforeAll(async () => {
        doc = await parse('pdflatex-outline.pdf');
      });

      it('takes the title from the first outline entry when /Title is empty', () => {
        expect(doc.title).toBe('Foo');
        expect(doc.pageCount).toBe(4);
      });

      it('gives every block the outline section it starts in, with page numbers', () => {
        const sections = doc.blocks.map((b) => [b.page, b.pageEnd, b.headingPath.join(' > ')]);
        expect(sections).toEqual([
          [1, undefined, ''],
          [1, undefined, ''],
          [2, undefined, 'Foo'],
          [2, undefined, 'Bar'],
          [2, undefined, 'Baz'],
          [2, 3, 'Foo'],
          [3, undefined, 'Bar'],
          [3, undefined, 'Baz'],
          [3, 4, 'Foo'],
          [4, undefined, 'Bar'],
          [4, undefined, 'Baz'],
        ]);
      });

      it('drops the printed section titles, which live in the heading path', () => {
        expect(doc.blocks[2].text).toMatch(/^Hello, here is some text without a meaning\./);
        expect(doc.blocks.some((b) => /^\d Foo$/.test(b.text))).toBe(false);
      });
    });

    describe('geotopo-lecture-notes-outline.pdf (117-page LaTeX book with a nested outline)', () => {
      let doc: ParsedDocument;
      beforeAll(async () => {
        doc = await parse('geotopo-lecture-notes-outline.pdf');
      }, 120_000);

      it('uses the meaningful /Title', () => {
        expect(doc.title).toBe('Geometrie und Topologie');
        expect(doc.metadata.author).toBe('Martin Thoma');
      });

      it('nests outline titles and switches section mid-page at the destination', () => {
        // section.55 (1.2 Metrische Räume) is an XYZ destination in the middle of page 10.
        const page10 = doc.blocks.filter((b) => b.page === 10).map((b) => b.headingPath.join(' > '));
        expect(page10[0]).toBe('1 Topologische Grundbegriffe > 1.1 Topologische Räume');
        expect(page10[page10.length - 1]).toBe('1 Topologische Grundbegriffe > 1.2 Metrische Räume');
        expect(blockWith(doc, 'Eine Abbildung d : X × X → R+0 heißt Metrik')).toMatchObject({
          page: 10,
          headingPath: ['1 Topologische Grundbegriffe', '1.2 Metrische Räume'],
        });
      });

      it('assigns third-level entries (subsection 4.2.1 on page 78)', () => {
        expect(
          blockWith(doc, 'heißen flächengleich, wenn sie sich in kongruente Dreiecke zerlegen'),
        ).toMatchObject({
          page: 78,
          headingPath: [
            '4 Euklidische und nichteuklidische Geometrie',
            '4.2 Weitere Eigenschaften einer euklidischen Ebene',
            '4.2.1 Flächeninhalt',
          ],
        });
      });

      it('mends words hyphenated at line ends and keeps real compounds', () => {
        const text = allText(doc);
        expect(text).toContain('ihre Übungsaufgaben und Lösungen zu benutzen');
        expect(text).toContain('Auch die Beweisführung mittels Widerspruchsbeweisen sollte bekannt sein');
        expect(text).toContain('(Schwarz-Weiß, Ringbindung)');
      });

      it('removes running headers and page numbers', () => {
        expect(allText(doc)).not.toMatch(/1\.1\. TOPOLOGISCHE RÄUME/);
        expect(doc.blocks.some((b) => /^\d+ (\| )?\d\.\d\. [A-ZÄÖÜ]/.test(b.text))).toBe(false);
      });
    });

    describe('federal-register-2020-17221-3col.pdf (three columns, no outline)', () => {
      let doc: ParsedDocument;
      beforeAll(async () => {
        doc = await parse('federal-register-2020-17221-3col.pdf');
      }, 120_000);

      it('reads a wrapped sentence of one column contiguously, without the next column', () => {
        const summary = blockWith(doc, 'SUMMARY:');
        expect(summary.text).toContain(
          'The FAA proposes to supersede Airworthiness Directive (AD) 2018–23–51, which applies to all The Boeing Company Model 737–8 and 737–9 (737 MAX) airplanes.',
        );
        expect(summary.text).not.toContain('eRulemaking');
        expect(summary.page).toBe(1);
      });

      it('continues a paragraph from the foot of one column to the top of the next', () => {
        expect(allText(doc)).toContain(
          'The most helpful comments reference a specific portion of the proposal, explain the reason for any recommended change',
        );
      });

      it('continues a paragraph over a page break past the footnotes, with page and pageEnd', () => {
        const block = blockWith(
          doc,
          'In addition to these four design changes, the FAA also proposes to require operators',
        );
        expect(block).toMatchObject({ page: 2, pageEnd: 3 });
        expect(
          blockWith(doc, '1 Preliminary KNKT.18.10.35.04 Aircraft Accident Investigation Report').page,
        ).toBe(2);
      });

      it('removes the running header, the page numbers and the printer slug', () => {
        const text = allText(doc);
        expect(text).not.toContain('Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020');
        expect(text).not.toContain('VerDate');
        expect(doc.blocks.some((b) => /^477\d\d$/.test(b.text))).toBe(false);
      });

      it('infers headings from bold and large type', () => {
        expect(doc.title).toBe('Proposed Rules');
        expect(
          blockWith(doc, 'The FAA invites you to participate in this rulemaking').headingPath.at(-1),
        ).toBe('Comments Invited');
        expect(blockWith(doc, 'On October 29, 2018, a Boeing Model 737–8 airplane').headingPath.at(-1)).toBe(
          'Background',
        );
        expect(doc.blocks.some((b) => b.text === 'Comments Invited')).toBe(false);
      });

      it('keeps hyphens the document itself spells (non-normal, FAA-approved)', () => {
        const text = allText(doc);
        expect(text).toContain('prompt the flightcrew to perform a non-normal procedure');
        expect(text).toContain('operators with an existing FAA-approved MEL');
      });

      it('keeps bullet lists together and dot-leader tables as rows', () => {
        expect(blockWith(doc, '• Fax: 202–493–2251.').kind).toBe('list');
        const table = blockWith(doc, 'AFM revisions | 1 work-hour × $85 per hour = $85 | $0 | $85 | $6,205.');
        expect(table).toMatchObject({ kind: 'table', page: 5 });
      });

      it('reads the page that is a picture (a figure of the flight manual) by OCR, in its section', () => {
        expect(doc.warnings).toBeUndefined();
        const figure = doc.blocks.filter((b) => b.page === 8);
        expect(figure.length).toBeGreaterThan(0);
        expect(figure.every((b) => b.ocr && b.ocrConfidence! > 80)).toBe(true);
        expect(figure.map((b) => b.text).join(' ')).toContain('Airspeed Unreliable');
        expect(figure[0].headingPath.at(-1)).toBe('PART 39—AIRWORTHINESS DIRECTIVES');
        expect(doc.blocks.filter((b) => b.ocr).every((b) => b.page === 8)).toBe(true);
      });
    });

    it('reads two columns of the FAA handbook in order and takes italic headings', async () => {
      const doc = await parse('faa-amt-handbook-sample-2col.pdf');
      expect(doc.title).toBe('AMT General Handbook');
      expect(allText(doc)).toContain(
        'The wing type that is the most common ranges in size for No. 6 up to 1⁄4 inch',
      );
      expect(blockWith(doc, 'The Boots self-locking nut is of one piece').headingPath).toEqual([
        'Boots Self-Locking Nut',
      ]);
      expect(allText(doc)).not.toContain('7-45');
    });

    it('keeps a Google Docs table as a table: cells in their columns, empty cells kept', async () => {
      const doc = await parse('google-doc-document.pdf');
      expect(doc.title).toBe('PDF Example Document');
      const table = doc.blocks.find((b) => b.kind === 'table');
      expect(table?.text.split('\n')).toEqual([
        '|  | Indonesia | Germany | Austria | France | Vatican |',
        '| --- | --- | --- | --- | --- | --- |',
        '| Continent | Asia |  |  | Europe |  |',
        '| Capital | Jakarta | Berlin | Vienna | Paris | Vatican City |',
        '| Currency | Rupia |  | EUR (€) |  | - |',
        '| Population | 273.879.7501 | 83,190,5562 | 8,935,1123 | 67,413,000 | 453 |',
      ]);
    });

    it('reads a government statistics table with two header rows: group labels over column names', async () => {
      const doc = await parser.parse({
        fileName: 'nics.pdf',
        mediaType: 'application/pdf',
        data: readFileSync(fixtureDocument('nics-background-checks-2015-11.pdf')),
      });
      const lines = doc.blocks.find((b) => b.kind === 'table')?.text.split('\n') ?? [];
      const header = lines[0].split(' | ');
      expect(header).toHaveLength(25);
      expect(header.slice(0, 3)).toEqual(['| State / Territory', 'Permit', 'Handgun']);
      expect(header).toContain('Pre-Pawn Long Gun');
      expect(header).toContain('Returned/Disposition *Other');
      expect(header).toContain('Rentals Long Gun');
      expect(header).toContain('Return to Seller - Private Sale *Other');
      expect(lines[1]).toMatch(/^\| --- \|/);
      // Rentals are empty for Alabama: its later figures stay in their own columns.
      expect(lines[2]).toBe(
        '| Alabama | 18,870 | 23,022 | 22,650 | 859 | 1,178 | 0 | 14 | 15 | 0 | 2,179 | 2,307 | 11 | 0 | 0 | 0 |  |  | 13 | 14 | 0 | 3 | 2 | 0 | 71,137 |',
      );
      expect(lines).toContain(
        '| Totals | 804,006 | 671,330 | 636,903 | 26,597 | 23,015 | 1,281 | 218 | 249 | 13 | 29,905 | 38,487 | 102 | 1,656 | 533 | 44 | 0 | 0 | 1,067 | 905 | 65 | 31 | 45 | 5 | 2,236,457 |',
      );
    });

    it('drops transcript line numbers and falls back to the file name for a junk /Title', async () => {
      const doc = await parse('scotus-transcript-p1.pdf');
      expect(doc.title).toBe('scotus-transcript-p1');
      expect(doc.metadata.title).toBe('10811.exe');
      expect(allText(doc)).toContain(
        'The above-entitled matter came on for oral argument before the Supreme Court of the United States at 1:01 p.m.',
      );
    });

    it('reads right-to-left Arabic text without failing', async () => {
      const doc = await parse('arabic-habibi-rtl.pdf');
      expect(doc.title).toBe('habibi');
      expect(doc.blocks[0]).toMatchObject({ kind: 'paragraph', page: 1 });
      expect(doc.blocks[0].text).toContain('habibi');
      expect(doc.blocks[0].text).toMatch(/[\u0600-\u06FF]/);
    });
  });
});
