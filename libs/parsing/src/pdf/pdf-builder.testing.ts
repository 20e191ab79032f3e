/**
 * A page of a test PDF: lines of Helvetica text from the top, a greyscale JPEG filling its width
 * (below the text when there is both), or both.
 */
export interface TestPdfPage {
  text?: string[];
  image?: { jpeg: Buffer; width: number; height: number };
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;

/**
 * A minimal, valid PDF (Letter pages, xref table) for tests: image-only pages are what a scanner
 * produces, text lines give a page a real text layer.
 */
export function buildTestPdf(pages: TestPdfPage[]): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
    return objects.length;
  };
  const stream = (dictionary: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);

  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the pages are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    const operations: string[] = [];
    let resources = `/Font << /F1 ${font} 0 R >>`;
    if (page.image) {
      const { jpeg, width, height } = page.image;
      const image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode`,
          jpeg,
        ),
      );
      resources += ` /XObject << /Im0 ${image} 0 R >>`;
      const drawnHeight = (PAGE_WIDTH * height) / width;
      const top = PAGE_HEIGHT - (page.text?.length ? 40 + page.text.length * 14 : 0);
      operations.push(
        `q ${PAGE_WIDTH} 0 0 ${drawnHeight.toFixed(2)} 0 ${(top - drawnHeight).toFixed(2)} cm /Im0 Do Q`,
      );
    }
    for (const [i, line] of (page.text ?? []).entries()) {
      const escaped = line.replace(/[\\()]/g, (c) => `\\${c}`);
      operations.push(`BT /F1 11 Tf 72 ${PAGE_HEIGHT - 40 - i * 14} Td (${escaped}) Tj ET`);
    }
    const content = add(stream('', Buffer.from(operations.join('\n'), 'latin1')));
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << ${resources} >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    'latin1',
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(offset);
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(object);
    offset += object.length;
  }
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}
