import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_LIMITS, MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { CsvParser } from './csv.parser';

const parser = new CsvParser();
const parse = (data: Buffer, fileName = 'sales.csv', mediaType: string = MEDIA_TYPES.csv) =>
  parser.parse({ fileName, mediaType, data });

/** Windows-1251 bytes of Cyrillic text (TextDecoder only decodes, so the table is inverted). */
function cp1251(text: string): Buffer {
  const decoder = new TextDecoder('windows-1251');
  const byChar = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) byChar.set(decoder.decode(Uint8Array.of(byte)), byte);
  return Buffer.from([...text].map((char) => byChar.get(char)!));
}

const RUSSIAN =
  'Регион;Продажи;План\r\nСевер;120;100\r\nЮг;90;95\r\nЦентральный федеральный округ;300;280\r\n';

describe('CsvParser', () => {
  it('detects the header row and numbers rows by record (a quoted line break stays in its record)', async () => {
    const doc = await parse(
      Buffer.from('Sales by region\n\nRegion,Q1,Q2\nNorth,120,"1,300"\n"South\nEast",90,95\n'),
    );
    expect(doc).toMatchObject({ title: 'sales', metadata: { encoding: 'utf-8', delimiter: ',' } });
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Sales by region', headingPath: [] },
      {
        kind: 'table',
        text: '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 120 | 1,300 |\n| South East | 90 | 95 |',
        headingPath: [],
        rowNumbers: [4, 5],
      },
    ]);
  });

  it('detects a semicolon delimiter and a windows-1251 encoding', async () => {
    const doc = await parse(cp1251(RUSSIAN), 'продажи.csv');
    expect(doc.metadata).toEqual({ encoding: 'windows-1251', delimiter: ';' });
    expect(doc.blocks[0].text.split('\n')).toEqual([
      '| Регион | Продажи | План |',
      '| --- | --- | --- |',
      '| Север | 120 | 100 |',
      '| Юг | 90 | 95 |',
      '| Центральный федеральный округ | 300 | 280 |',
    ]);
  });

  it('reads UTF-16 with or without a byte-order mark, and tabs in a TSV file', async () => {
    const tabbed = RUSSIAN.replaceAll(';', '\t');
    for (const data of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tabbed, 'utf16le')]),
      Buffer.from(tabbed, 'utf16le'),
    ]) {
      const doc = await parse(data, 'sales.tsv', MEDIA_TYPES.tsv);
      expect(doc.metadata).toEqual({ encoding: 'utf-16le', delimiter: 'tab' });
      expect(doc.blocks[0].text).toContain('| Юг | 90 | 95 |');
    }
  });

  it('fails an empty, binary or valueless file permanently with a readable reason', async () => {
    await expect(parse(Buffer.alloc(0))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
      message: 'sales.csv is empty (0 bytes)',
    });
    await expect(parse(Buffer.from('\n,,\n , \n'))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
    });
    const binary = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256));
    await expect(parse(binary)).rejects.toMatchObject({
      code: TroveErrorCode.UndecodableDocument,
      message: 'sales.csv is not text: it contains NUL bytes and is not UTF-16',
    });
  });

  it('fails a file of more records than the row limit, naming the limit', async () => {
    const small = new CsvParser({ ...DEFAULT_DOCUMENT_LIMITS, maxRows: 3 });
    const three = await small.parse({
      fileName: 'a.csv',
      mediaType: MEDIA_TYPES.csv,
      data: Buffer.from('a,b\n1,2\n3,4\n'),
    });
    expect(three.blocks[0].rowNumbers).toEqual([2, 3]);
    await expect(
      small.parse({
        fileName: 'b.csv',
        mediaType: MEDIA_TYPES.csv,
        data: Buffer.from('a,b\n1,2\n3,4\n5,6\n'),
      }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.ParseLimitExceeded,
      message:
        'b.csv has more than 3 rows, over the limit of 3 rows per document (TROVE_DOCUMENT_MAX_ROWS raises it)',
    });
  });
});
