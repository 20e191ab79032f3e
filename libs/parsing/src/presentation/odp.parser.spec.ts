import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, TroveErrorCode } from '@trove/domain';
import { odfPackage } from '../office/office-fixtures.testing';
import { OdpParser } from './odp.parser';

const parser = new OdpParser();
const parse = (data: Buffer, fileName = 'talk.odp') =>
  parser.parse({ fileName, mediaType: MEDIA_TYPES.odp, data });

const frame = (kind: string, text: string) =>
  `<draw:frame presentation:class="${kind}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;

const SLIDES = [
  `<draw:page draw:name="page1">${frame('title', 'Welcome')}${frame('subtitle', 'An introduction')}${frame('page-number', '1')}</draw:page>`,
  `<draw:page draw:name="page2">${frame('title', 'Costs')}<draw:frame><table:table><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Rent</text:p></table:table-cell><table:table-cell><text:p>1000</text:p></table:table-cell></table:table-row></table:table></draw:frame><presentation:notes>${frame('page', '')}${frame('notes', 'Rent went up in May.')}</presentation:notes></draw:page>`,
].join('');

describe('OdpParser', () => {
  it('makes each draw:page a slide section with its title, frames, table cells and notes', async () => {
    const doc = await parse(await odfPackage(MEDIA_TYPES.odp, SLIDES, { title: 'Kick-off' }));
    expect(doc).toMatchObject({ title: 'Kick-off', pageCount: 2 });
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'An introduction', headingPath: ['Slide 1: Welcome'], page: 1 },
      {
        kind: 'table',
        text: '| Item | Cost |\n| --- | --- |\n| Rent | 1000 |',
        headingPath: ['Slide 2: Costs'],
        page: 2,
      },
      { kind: 'paragraph', text: 'Rent went up in May.', headingPath: ['Slide 2: Costs', 'Notes'], page: 2 },
    ]);
  });

  it('fails an encrypted package, another OpenDocument kind or a slideless one permanently', async () => {
    await expect(parse(await odfPackage(MEDIA_TYPES.odp, SLIDES, { encrypted: true }))).rejects.toMatchObject(
      {
        code: TroveErrorCode.EncryptedDocument,
      },
    );
    await expect(parse(await odfPackage(MEDIA_TYPES.odt, '<text:p>x</text:p>'))).rejects.toMatchObject({
      code: TroveErrorCode.ParseFailed,
      message: `talk.odp is not an OpenDocument presentation: its mimetype entry says ${MEDIA_TYPES.odt}`,
    });
    await expect(parse(await odfPackage(MEDIA_TYPES.odp, ''))).rejects.toMatchObject({
      code: TroveErrorCode.EmptyDocument,
    });
  });
});
