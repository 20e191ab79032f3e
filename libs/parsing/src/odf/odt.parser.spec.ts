import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { buildZip } from '../archive/zip-fixtures.testing';
import { odfPackage } from '../office/office-fixtures.testing';
import { OdtParser } from './odt.parser';

const parser = new OdtParser();
const parse = (data: Buffer, fileName = 'notes.odt') =>
  parser.parse({ fileName, mediaType: MEDIA_TYPES.odt, data });

const BODY = [
  '<text:tracked-changes><text:changed-region><text:deletion><text:p>Deleted words</text:p></text:deletion></text:changed-region></text:tracked-changes>',
  '<text:h text:outline-level="1">Budget</text:h>',
  '<text:p>The plan<text:s text:c="2"/>for 2025.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Approved in March.</text:p></text:note-body></text:note></text:p>',
  '<text:p><office:annotation><text:p>A reviewer comment</text:p></office:annotation>Costs follow.</text:p>',
  '<text:h text:outline-level="2">Costs</text:h>',
  '<table:table table:name="Costs"><table:table-column table:number-columns-repeated="2"/>',
  '<table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell></table:table-row>',
  '<table:table-row><table:table-cell><text:p>Rent</text:p></table:table-cell><table:table-cell><text:p>1000</text:p></table:table-cell></table:table-row>',
  '<table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="2"/></table:table-row>',
  '</table:table>',
  '<text:list><text:list-item><text:p>first</text:p></text:list-item><text:list-item><text:p>second</text:p></text:list-item></text:list>',
].join('');

describe('OdtParser', () => {
  it('keeps headings as the heading path and tables as tables; comments and tracked deletions are left out', async () => {
    const doc = await parse(await odfPackage(MEDIA_TYPES.odt, BODY, { title: 'Plan' }));
    expect(doc.title).toBe('Plan');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'The plan for 2025. [Approved in March.]', headingPath: ['Budget'] },
      { kind: 'paragraph', text: 'Costs follow.', headingPath: ['Budget'] },
      {
        kind: 'table',
        text: '| Item | Cost |\n| --- | --- |\n| Rent | 1000 |',
        headingPath: ['Budget', 'Costs'],
      },
      { kind: 'list', text: '- first\n- second', headingPath: ['Budget', 'Costs'] },
    ]);
  });

  it('fails encrypted, non-OpenDocument and empty files permanently with a readable reason', async () => {
    await expect(parse(await odfPackage(MEDIA_TYPES.odt, BODY, { encrypted: true }))).rejects.toMatchObject({
      code: TroveErrorCode.EncryptedDocument,
      message: 'notes.odt is password-protected; save it without a password and upload it again',
    });
    await expect(parse(await buildZip([{ path: 'a.txt', data: 'x' }]))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
      message: 'notes.odt is not a readable OpenDocument text document: content.xml is missing',
    });
    await expect(parse(await odfPackage(MEDIA_TYPES.odt, '<text:p> </text:p>'))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
    });
    await expect(parse(Buffer.from('not a zip at all'))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
  });
});
