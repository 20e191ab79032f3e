import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import { Chunker } from './chunker';
import { detectLanguage } from './language';
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

describe('SegmenterTokenCounter', () => {
  it('counts words, punctuation and CJK characters', () => {
    expect(counter.count('')).toBe(0);
    expect(counter.count('a b c')).toBe(3);
    expect(counter.count('知识库')).toBe(3);
    expect(counter.count('Hello, world!')).toBeGreaterThanOrEqual(4);
  });
});
