import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import { Chunker } from './chunker';
import { detectLanguage } from '@trove/domain';
import { SegmenterTokenCounter } from './token-counter';

const counter = new SegmenterTokenCounter();
const context = { documentId: 'doc1', projectId: 'p1' };
const sentence = (i: number) => `Sentence number ${i} talks about retrieval and indexing in some detail.`;

function doc(blocks: ParsedDocument['blocks']): ParsedDocument {
  return { title: 'Guide', metadata: {}, blocks };
}

describe('Chunker', () => {
  it('never packs two sections into one chunk and keeps heading paths', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 40 });
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: 'alpha', headingPath: ['A'] },
        { kind: 'paragraph', text: 'beta', headingPath: ['A'] },
        { kind: 'paragraph', text: 'gamma', headingPath: ['B'] },
      ]),
      context,
    );
    expect(chunks.map((c) => [c.headingPath, c.text, c.position])).toEqual([
      [['A'], 'alpha\n\nbeta', 0],
      [['B'], 'gamma', 1],
    ]);
  });

  it('marks chunks with OCR text and their mean confidence; chunks of real text stay unmarked', () => {
    const chunker = new Chunker(counter, { targetTokens: 40, overlapTokens: 0 });
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: sentence(0), headingPath: ['Intro'], page: 1 },
        { kind: 'paragraph', text: sentence(1), headingPath: ['A'], page: 1 },
        { kind: 'paragraph', text: sentence(2), headingPath: ['A'], page: 2, ocr: true, ocrConfidence: 91 },
        { kind: 'paragraph', text: sentence(3), headingPath: ['A'], page: 2, ocr: true, ocrConfidence: 91 },
        { kind: 'paragraph', text: sentence(4), headingPath: ['A'], page: 3, ocr: true, ocrConfidence: 60 },
      ]),
      context,
    );
    // A chunk with some OCR'd text is marked, with the mean over its OCR'd blocks.
    expect(chunks.map((c) => [c.page, c.pageEnd, c.ocr, c.ocrConfidence])).toEqual([
      [1, 1, undefined, undefined],
      [1, 2, true, 91],
      [2, 3, true, 76],
    ]);
  });

  it('packs long prose under the target, with overlap between consecutive chunks', () => {
    const chunker = new Chunker(counter, { targetTokens: 60, overlapTokens: 25 });
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunker.chunk(doc([{ kind: 'paragraph', text, headingPath: ['A'] }]), context);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(60 + 5);
    for (let i = 1; i < chunks.length; i++) {
      const firstSentence = /^.*?\./.exec(chunks[i].text)![0];
      expect(chunks[i - 1].text.endsWith(firstSentence)).toBe(true);
      expect(chunks[i].text).not.toContain('\n\n');
    }
    // Every sentence survives.
    const all = chunks.map((c) => c.text).join(' ');
    for (let i = 0; i < 12; i++) expect(all).toContain(sentence(i));
  });

  it('keeps a code block whole when it fits, and cuts a long one between lines, re-fenced', () => {
    const chunker = new Chunker(counter, { targetTokens: 80, overlapTokens: 10 });
    const small = '```ts\nconst a = 1;\nconst b = 2;\n```';
    const longBody = Array.from({ length: 40 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: 'Before.', headingPath: ['A'] },
        { kind: 'code', text: small, headingPath: ['A'], codeLanguage: 'ts' },
        { kind: 'code', text: '```ts\n' + longBody + '\n```', headingPath: ['B'], codeLanguage: 'ts' },
      ]),
      context,
    );
    expect(chunks[0].text).toBe(`Before.\n\n${small}`);
    expect(chunks[0].hasCode).toBe(true);
    const codeChunks = chunks.slice(1);
    expect(codeChunks.length).toBeGreaterThan(1);
    for (const chunk of codeChunks) {
      expect(chunk.text.startsWith('```ts\n')).toBe(true);
      expect(chunk.text.endsWith('\n```')).toBe(true);
    }
    const lines = codeChunks.flatMap((c) => c.text.split('\n').filter((l) => !l.startsWith('```')));
    expect(lines).toEqual(longBody.split('\n'));
  });

  it('gives deterministic ids that change with content', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 40 });
    const blocks = [{ kind: 'paragraph' as const, text: 'stable text', headingPath: [] }];
    const a = chunker.chunk(doc(blocks), context);
    const b = chunker.chunk(doc(blocks), context);
    const c = chunker.chunk(doc([{ ...blocks[0], text: 'changed text' }]), context);
    expect(a[0].id).toBe(b[0].id);
    expect(a[0].id).toMatch(/^doc1-0-[0-9a-f]{12}$/);
    expect(c[0].id).not.toBe(a[0].id);
  });

  it('links each chunk to the anchor of its first own block', () => {
    const chunker = new Chunker(counter, { targetTokens: 30, overlapTokens: 0 });
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: sentence(1), headingPath: ['A'], anchor: 'block-1' },
        { kind: 'paragraph', text: sentence(2), headingPath: ['A'], anchor: 'block-2' },
        { kind: 'paragraph', text: 'no anchor here', headingPath: ['B'] },
      ]),
      context,
    );
    expect(chunks.map((c) => c.anchor)).toEqual(['block-1', 'block-2', undefined]);
  });

  it('links a chunk that starts with an anchor-less block to its first anchored block, ids unchanged', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 0 });
    // A Notion database row: its property list has no block of its own, the content after it has.
    const blocks: ParsedDocument['blocks'] = [
      { kind: 'list', text: '- Status: Accepted\n- Owner: Maria', headingPath: [] },
      { kind: 'paragraph', text: sentence(1), headingPath: [], anchor: 'block-1' },
      { kind: 'paragraph', text: sentence(2), headingPath: [], anchor: 'block-2' },
      { kind: 'paragraph', text: sentence(3), headingPath: ['Consequences'], anchor: 'block-3' },
    ];
    const chunks = chunker.chunk(doc(blocks), context);
    expect(chunks.map((c) => c.anchor)).toEqual(['block-1', 'block-3']);
    // Anchors are not part of a chunk's identity: the ids are those of the same text without them.
    const bare = chunker.chunk(doc(blocks.map(({ anchor: _, ...block }) => block)), context);
    expect(chunks.map((c) => c.id)).toEqual(bare.map((c) => c.id));
    expect(bare.map((c) => c.anchor)).toEqual([undefined, undefined]);
  });

  it('carries page ranges, chapter and code languages of the blocks in each chunk', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 0 });
    const [chunk] = chunker.chunk(
      doc([
        { kind: 'paragraph', text: sentence(1), headingPath: ['A'], page: 3, chapter: 'One' },
        { kind: 'paragraph', text: sentence(2), headingPath: ['A'], page: 4, pageEnd: 5, chapter: 'One' },
        { kind: 'code', text: '```py\nprint(1)\n```', headingPath: ['A'], codeLanguage: 'py', page: 5 },
      ]),
      context,
    );
    expect(chunk).toMatchObject({
      page: 3,
      pageEnd: 5,
      chapter: 'One',
      codeLanguages: ['py'],
      hasCode: true,
    });
    const [plain] = chunker.chunk(doc([{ kind: 'paragraph', text: 'x', headingPath: [] }]), context);
    expect(plain.page).toBeUndefined();
    expect(plain.codeLanguages).toEqual([]);
  });

  it('merges a tiny section into its subsection, never into a sibling', () => {
    const chunker = new Chunker(counter, { targetTokens: 200, overlapTokens: 0, minTokens: 20 });
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: 'Short intro.', headingPath: ['Guide'], anchor: 'guide', page: 1 },
        { kind: 'paragraph', text: sentence(1), headingPath: ['Guide', 'Install'], page: 2 },
        { kind: 'paragraph', text: sentence(2) + ' ' + sentence(3), headingPath: ['Other'], page: 2 },
        { kind: 'paragraph', text: 'Tiny tail.', headingPath: ['Third'], page: 3 },
        { kind: 'paragraph', text: 'Tiny sibling.', headingPath: ['Fourth'], page: 3 },
      ]),
      context,
    );
    expect(chunks.map((c) => [c.headingPath, c.text, c.anchor, c.page, c.pageEnd])).toEqual([
      [['Guide'], `Short intro.\n\nInstall\n\n${sentence(1)}`, 'guide', 1, 2],
      [['Other'], `${sentence(2)} ${sentence(3)}`, undefined, 2, 2],
      // A sibling section: a tiny chunk stays on its own rather than lose its heading.
      [['Third'], 'Tiny tail.', undefined, 3, 3],
      [['Fourth'], 'Tiny sibling.', undefined, 3, 3],
    ]);
    expect(chunks.map((c) => c.position)).toEqual([0, 1, 2, 3]);
  });

  it('prefixes the embedding text with title and heading path', () => {
    expect(
      Chunker.embeddingText({ title: 'Guide', headingPath: ['Install', 'Linux'], text: 'Run it.' }),
    ).toBe('Guide › Install › Linux\n\nRun it.');
  });
});

describe('detectLanguage', () => {
  it('names the dominant script', () => {
    expect(detectLanguage('The quick brown fox')).toBe('en');
    expect(detectLanguage('Быстрая коричневая лиса и fox')).toBe('ru');
    expect(detectLanguage('我们的知识库 search')).toBe('cjk');
    expect(detectLanguage('12345 !!')).toBe('und');
  });
});

describe('Chunker: tables', () => {
  const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
  const mdHeader = '| State | Farms | Employees | Sales |\n| --- | --- | --- | --- |';
  const mdRows = Array.from(
    { length: 60 },
    (_, i) => `| State${i} | ${1000 + i} | ${20000 + i} | ${i * 7} |`,
  );

  it('starts every chunk of a long pipe table with its header and separator, within budget', () => {
    const chunker = new Chunker(counter, { targetTokens: 120, overlapTokens: 30 });
    const blocks: ParsedDocument['blocks'] = [
      { kind: 'paragraph', text: sentence(1), headingPath: ['Intro'] },
      { kind: 'paragraph', text: sentence(2), headingPath: ['Figures'] },
      { kind: 'table', text: [mdHeader, ...mdRows].join('\n'), headingPath: ['Figures'] },
    ];
    const chunks = chunker.chunk(doc(blocks), context);
    const table = chunks.filter((c) => c.text.includes('| State'));
    expect(table.length).toBeGreaterThan(3);
    for (const chunk of table.slice(1)) expect(chunk.text.startsWith(`${mdHeader}\n| State`)).toBe(true);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(120);
      // The header appears once per chunk, never twice.
      expect(chunk.text.split('| State | Farms').length).toBeLessThanOrEqual(2);
    }
    // Every row is kept exactly once.
    const rows = table.flatMap((c) => c.text.split('\n').filter((l) => /^\| State\d/.test(l)));
    expect(rows).toEqual(mdRows);
    // Same input, same ids; the section before the table keeps its id.
    expect(chunker.chunk(doc(blocks), context).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(chunks[0].id).toBe(chunker.chunk(doc(blocks.slice(0, 1)), context)[0].id);
  });

  it("cuts a sheet's table by row ranges: each chunk names its sheet and the sheet rows it holds", () => {
    const chunker = new Chunker(counter, { targetTokens: 120, overlapTokens: 30, minTokens: 20 });
    // Sheet rows 4, 5, 6 … with row 10 empty (left out by the parser): numbers are not positions.
    const rowNumbers = mdRows.map((_, i) => (i < 6 ? i + 4 : i + 5));
    const chunks = chunker.chunk(
      doc([
        { kind: 'paragraph', text: 'Farm census 2022', headingPath: ['Census'], sheet: 'Census' },
        {
          kind: 'table',
          text: [mdHeader, ...mdRows].join('\n'),
          headingPath: ['Census'],
          sheet: 'Census',
          rowNumbers,
        },
        {
          kind: 'table',
          text: `${mdHeader}\n${mdRows[0]}`,
          headingPath: ['Other'],
          sheet: 'Other',
          rowNumbers: [2],
        },
      ]),
      context,
    );
    const census = chunks.filter((c) => c.sheet === 'Census');
    expect(census.length).toBeGreaterThan(3);
    for (const chunk of census) {
      expect(chunk.headingPath).toEqual(['Census']);
      const rows = chunk.text.split('\n').filter((l) => /^\| State\d/.test(l));
      const numbers = rows.map((row) => rowNumbers[mdRows.indexOf(row)]);
      expect([chunk.rowStart, chunk.rowEnd]).toEqual([numbers[0], numbers.at(-1)]);
      if (chunk !== census[0]) expect(chunk.text.startsWith(`${mdHeader}\n| State`)).toBe(true);
    }
    expect(census[0].rowStart).toBe(4);
    expect(census.at(-1)!.rowEnd).toBe(64);
    expect(chunks.find((c) => c.sheet === 'Other')).toMatchObject({ rowStart: 2, rowEnd: 2 });
  });

  it('lets a question naming a column find a chunk of PDF rows without a separator line', () => {
    const chunker = new Chunker(counter, { targetTokens: 100, overlapTokens: 20 });
    const header = 'State | Farms | Employees | Payroll | Sales';
    const states = ['Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut'];
    const rows = Array.from(
      { length: 40 },
      (_, i) => `${states[i % states.length]}${i} | ${4000 + i} | ${19000 + i} | ${i} | ${i * 3}`,
    );
    rows[30] = 'Colorado | 4,144 | 19,784 | 812 | 2,306';
    const chunks = chunker.chunk(
      doc([{ kind: 'table', text: [header, ...rows].join('\n'), headingPath: [], page: 3 }]),
      context,
    );
    const colorado = chunks.find((c) => c.text.includes('Colorado | 4,144 | 19,784'))!;
    expect(colorado.position).toBeGreaterThan(0);
    expect(colorado.text.startsWith(`${header}\n`)).toBe(true);
    const question = words('How many employees did farms in Colorado have?');
    expect([...words(colorado.text)].filter((w) => question.has(w))).toEqual(
      expect.arrayContaining(['employees', 'farms', 'colorado']),
    );
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(100);
  });

  it('repeats an aligned Markdown separator in compact form, keeping the original in the first chunk', () => {
    const chunker = new Chunker(counter, { targetTokens: 80, overlapTokens: 0 });
    const head = ['Source file      | URL format', ':----------------|-----------------:'];
    const rows = Array.from({ length: 40 }, (_, i) => `page${i}.md        | /page${i}/`);
    const chunks = chunker.chunk(
      doc([{ kind: 'table', text: [...head, ...rows].join('\n'), headingPath: [] }]),
      context,
    );
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0].text.startsWith(`${head.join('\n')}\npage0.md`)).toBe(true);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text.startsWith(`${head[0]}\n:--- | ---:\npage`)).toBe(true);
      expect(chunk.tokenCount).toBeLessThanOrEqual(80);
    }
  });

  it('cuts a header wider than half the target to its first words instead of looping', () => {
    const chunker = new Chunker(counter, { targetTokens: 40, overlapTokens: 0 });
    const header = Array.from({ length: 30 }, (_, i) => `Column${i}`).join(' | ');
    const rows = Array.from({ length: 30 }, (_, i) => `r${i} | ${i}`);
    const chunks = chunker.chunk(
      doc([{ kind: 'table', text: [header, ...rows].join('\n'), headingPath: [] }]),
      context,
    );
    const withRows = chunks.filter((c) => /^r\d+ \| /m.test(c.text));
    expect(withRows.length).toBeGreaterThan(1);
    expect(withRows.length).toBeLessThan(30);
    for (const chunk of withRows.filter((c) => !c.text.startsWith(header))) {
      expect(chunk.text).toMatch(/^Column0 \| Column1 .* …\nr\d+ \| /);
    }
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(40);
    const kept = chunks.flatMap((c) => c.text.split('\n').filter((l) => /^r\d+ \| /.test(l)));
    expect(kept).toEqual(rows);
  });

  it('never makes a chunk of the header alone when the repeated header is cut (a wide statistics table)', () => {
    const chunker = new Chunker(counter, { targetTokens: 100, overlapTokens: 0 });
    const names = Array.from({ length: 10 }, (_, i) => `Col${i}`);
    const header = `| ${names.join(' | ')} |`;
    const separator = `| ${names.map(() => '---').join(' | ')} |`;
    const rows = Array.from(
      { length: 20 },
      (_, i) =>
        `| r${i} | ${names
          .slice(1)
          .map(() => i)
          .join(' | ')} |`,
    );
    const chunks = chunker.chunk(
      doc([{ kind: 'table', text: [header, separator, ...rows].join('\n'), headingPath: [] }]),
      context,
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text.split('\n')[0]).toMatch(/^\| Col0 \| Col1 /);
      expect(chunk.text).toMatch(/^\| r\d+ \|/m);
    }
    const kept = chunks.flatMap((c) => c.text.split('\n').filter((l) => /^\| r\d+ \|/.test(l)));
    expect(kept).toEqual(rows);
  });

  it('leaves a table that fits one chunk unchanged, and repeats no blank Notion header', () => {
    const chunker = new Chunker(counter, { targetTokens: 120, overlapTokens: 0 });
    const short = '| Level | Meaning |\n| --- | --- |\n| SEV-1 | Search is down |';
    const blank = [
      '|  |  |',
      '| --- | --- |',
      ...Array.from({ length: 40 }, (_, i) => `| key${i} | value ${i} |`),
    ];
    const chunks = chunker.chunk(
      doc([
        { kind: 'table', text: short, headingPath: ['A'] },
        { kind: 'table', text: blank.join('\n'), headingPath: ['B'] },
        { kind: 'table', text: [mdHeader, ...mdRows].join('\n'), headingPath: ['C'] },
      ]),
      context,
    );
    expect(chunks[0].text).toBe(short);
    const notion = chunks.filter((c) => c.headingPath[0] === 'B');
    expect(notion.length).toBeGreaterThan(1);
    for (const chunk of notion.slice(1)) expect(chunk.text.startsWith('| key')).toBe(true);
    for (const chunk of chunks.filter((c) => c.headingPath[0] === 'C').slice(1)) {
      expect(chunk.text.startsWith(mdHeader)).toBe(true);
    }
  });
});

describe('SegmenterTokenCounter', () => {
  it('counts words, punctuation and CJK characters', () => {
    expect(counter.count('')).toBe(0);
    expect(counter.count('a b c')).toBe(3);
    expect(counter.count('知识库')).toBe(3);
    expect(counter.count('Hello, world!')).toBeGreaterThanOrEqual(4);
  });
});

describe('Chunker text cleaning', () => {
  it('chunks well-formed text only: lone surrogates and noncharacters become U+FFFD, controls go, in title, headings and text', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 0 });
    const [chunk] = chunker.chunk(
      {
        title: 'Title\uD800',
        metadata: {},
        blocks: [
          {
            kind: 'paragraph',
            text: 'Half a pair \uD800 here\u0000, \uFFFE end',
            headingPath: ['Head\uDC00'],
          },
        ],
      },
      context,
    );
    expect(chunk).toMatchObject({
      title: 'Title\uFFFD',
      headingPath: ['Head\uFFFD'],
      text: 'Half a pair \uFFFD here, \uFFFD end',
    });
    const clean = chunker.chunk(
      {
        title: 'Title\uFFFD',
        metadata: {},
        blocks: [
          { kind: 'paragraph', text: 'Half a pair \uFFFD here, \uFFFD end', headingPath: ['Head\uFFFD'] },
        ],
      },
      context,
    );
    // The content hash is the cleaned text's: the same text arriving clean reuses its embedding.
    expect(chunk.contentHash).toBe(clean[0].contentHash);
  });
});

describe('Chunker: no chunk larger than the target', () => {
  const target = 100;
  const chunker = new Chunker(counter, { targetTokens: target, overlapTokens: 0 });
  const base64 = Buffer.from(Array.from({ length: 150_000 }, (_, i) => (i * 2654435761) >>> 24)).toString(
    'base64',
  );
  const chunksOf = (blocks: ParsedDocument['blocks']) => {
    const chunks = chunker.chunk(doc(blocks), context);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(target);
      expect(chunk.tokenCount).toBe(counter.count(chunk.text));
    }
    return chunks;
  };

  it('cuts a paragraph that is one 200 KB word (a base64 blob) into pieces that fit, losing no character', () => {
    const chunks = chunksOf([{ kind: 'paragraph', text: `Attachment: ${base64} (end)`, headingPath: ['A'] }]);
    expect(chunks.length).toBeGreaterThan(200_000 / (target * 4));
    expect(chunks[0].text.startsWith(`Attachment: ${base64.slice(0, 100)}`)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(`Attachment: ${base64} (end)`);
  });

  it("cuts a one-field CSV's 1 MB cell into chunks that each repeat the header and name the row", () => {
    const cell = 'x'.repeat(1_000_000);
    const chunks = chunksOf([
      { kind: 'table', text: `| A |\n| --- |\n| ${cell} |`, headingPath: [], rowNumbers: [2] },
    ]);
    expect(chunks.length).toBeGreaterThan(1_000_000 / (target * 4));
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('| A |\n| --- |\n')).toBe(true);
      expect(chunk).toMatchObject({ rowStart: 2, rowEnd: 2 });
    }
    expect(chunks.map((c) => c.text.slice('| A |\n| --- |\n'.length)).join('')).toBe(`| ${cell} |`);
  });

  it('cuts a code line longer than the target (minified code) into fenced pieces that keep its characters', () => {
    const line = 'var a = { b: [1, 2, 3] }; function f(x) { return x * 2; } '.repeat(2_000);
    const chunks = chunksOf([
      { kind: 'code', text: `\`\`\`js\n${line}\n\`\`\``, headingPath: ['Code'], codeLanguage: 'js' },
    ]);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.text).toMatch(/^```js\n[^\n]+\n```$/);
      expect(chunk.codeLanguages).toEqual(['js']);
    }
    expect(chunks.map((c) => c.text.slice('```js\n'.length, -'\n```'.length)).join('')).toBe(line);
  });

  it('cuts lines of a list, CJK text without spaces and runs of emoji, never inside a character', () => {
    const han = '知识库检索增强生成'.repeat(3_000);
    const emoji = '😀👍🏽'.repeat(2_000);
    const chunks = chunksOf([
      { kind: 'list', text: `- short item\n- ${base64.slice(0, 20_000)}\n- another`, headingPath: ['L'] },
      { kind: 'paragraph', text: han, headingPath: ['CJK'] },
      { kind: 'paragraph', text: emoji, headingPath: ['Emoji'] },
    ]);
    const text = (heading: string) =>
      chunks
        .filter((c) => c.headingPath[0] === heading)
        .map((c) => c.text)
        .join('');
    expect(text('CJK')).toBe(han);
    expect(text('Emoji')).toBe(emoji);
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('Chunker: time in proportion to the text', () => {
  // Long words: few segments per character, so the whole-text segmenting this guards against
  // shows at 400 KB already, while linear counting of 4 MB takes about a second.
  const words = ['Pneumonoultramicroscopic', 'silicovolcanoconiosis', 'antidisestablishmentarian'];
  const paragraph = (bytes: number) => {
    const sentences: string[] = [];
    for (let length = 0, i = 0; length < bytes; i++) {
      const sentence = `${Array.from({ length: 8 }, (_, j) => words[(i + j) % 3]).join(' ')}.`;
      sentences.push(sentence);
      length += sentence.length + 1;
    }
    return sentences.join(' ');
  };
  /**
   * The least CPU time (this process's, in milliseconds) of each of two pieces of work, run in
   * turns: CPU time rather than wall time, and the least of several runs, so other work on the
   * machine disturbs the comparison as little as possible.
   */
  const cpuTimes = (runs: number, small: () => void, large: () => void) => {
    const best = [Infinity, Infinity];
    for (let i = 0; i < runs; i++) {
      [small, large].forEach((work, k) => {
        const started = process.cpuUsage();
        work();
        const { user, system } = process.cpuUsage(started);
        best[k] = Math.min(best[k], (user + system) / 1000);
      });
    }
    return { smallMs: best[0], largeMs: best[1] };
  };
  const small = paragraph(400_000);
  const large = paragraph(4_000_000);

  it('counts the tokens of a 4 MB block in at most 15 times the time of a 400 KB one', () => {
    counter.count(small);
    const { smallMs, largeMs } = cpuTimes(
      2,
      () => counter.count(small),
      () => counter.count(large),
    );
    expect(largeMs / smallMs).toBeLessThanOrEqual(15);
  }, 120_000);

  it('chunks a 4 MB single-paragraph document in at most 15 times the time of a 400 KB one', () => {
    const chunker = new Chunker(counter, { targetTokens: 400, overlapTokens: 50, minTokens: 40 });
    const chunk = (text: string) =>
      chunker.chunk(doc([{ kind: 'paragraph', text, headingPath: ['A'] }]), context);
    expect(chunk(small).length).toBeGreaterThan(100);
    const { smallMs, largeMs } = cpuTimes(
      2,
      () => chunk(small),
      () => chunk(large),
    );
    expect(largeMs / smallMs).toBeLessThanOrEqual(15);
  }, 120_000);
});
