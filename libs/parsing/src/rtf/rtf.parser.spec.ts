import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { RtfParser } from './rtf.parser';

const parser = new RtfParser();
const parse = (rtf: string | Buffer, fileName = 'memo.rtf') =>
  parser.parse({
    fileName,
    mediaType: MEDIA_TYPES.rtf,
    data: Buffer.isBuffer(rtf) ? rtf : Buffer.from(rtf, 'latin1'),
  });

const HEADER =
  '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss\\fcharset0 Arial;}{\\f1\\froman\\fcharset204 Times New Roman Cyr;}}' +
  '{\\colortbl;\\red0\\green0\\blue0;}{\\*\\generator Writer 1.0;}{\\info{\\title Team memo}{\\author Ann}}';

describe('RtfParser', () => {
  it('reads paragraphs, outline-level headings and tables with their cells; fonts, pictures and fields stay out', async () => {
    const rtf =
      HEADER +
      '\\pard\\s1\\outlinelevel0\\b Budget\\b0\\par' +
      '\\pard Costs rose \\ldblquote a little\\rdblquote . {\\*\\fldinst HYPERLINK "x"}{\\fldrslt see here}\\par' +
      '{\\pict\\pngblip\\bin4 {{{{}' +
      '\\trowd\\cellx2000\\cellx4000\\pard\\intbl Item\\cell Cost\\cell\\row' +
      '\\trowd\\cellx2000\\cellx4000\\pard\\intbl Rent\\cell 1000\\cell\\row' +
      '\\pard\\s2\\outlinelevel1 Notes\\par\\pard {\\v hidden words}Visible\\line second line\\par}';
    const doc = await parse(rtf);
    expect(doc.title).toBe('Team memo');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Costs rose \u201ca little\u201d. see here', headingPath: ['Budget'] },
      { kind: 'table', text: '| Item | Cost |\n| --- | --- |\n| Rent | 1000 |', headingPath: ['Budget'] },
      { kind: 'paragraph', text: 'Visible\nsecond line', headingPath: ['Budget', 'Notes'] },
    ]);
  });

  it('decodes the code page, a Cyrillic font charset and \\u characters with their fallback', async () => {
    const russian = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]); // "Привет" in windows-1251
    const rtf = Buffer.concat([
      Buffer.from(HEADER + "\\pard caf\\'e9 {\\f1 ", 'latin1'),
      Buffer.from([...russian].map((b) => `\\'${b.toString(16)}`).join(''), 'latin1'),
      Buffer.from('} \\uc1\\u20320?\\u22909? \\u-3913?\\par}', 'latin1'),
    ]);
    const doc = await parse(rtf);
    expect(doc.blocks.map((b) => b.text)).toEqual(['café Привет 你好 \uf0b7']);
  });

  it('fails a file that is not RTF, or has no text, permanently', async () => {
    await expect(parse('hello')).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
      message: 'memo.rtf is not an RTF document: it does not start with {\\rtf',
    });
    await expect(parse(`${HEADER}\\par}`)).rejects.toMatchObject({ code: TroveErrorCode.EmptyDocument });
    await expect(parse(Buffer.alloc(0))).rejects.toMatchObject({ code: TroveErrorCode.EmptyDocument });
  });

  it('reads 100,000 nested groups without running out of stack', async () => {
    const doc = await parse(`{\\rtf1 ${'{'.repeat(100_000)}deep${'}'.repeat(100_000)}}`);
    expect(doc.blocks.map((b) => b.text)).toEqual(['deep']);
  });
});
