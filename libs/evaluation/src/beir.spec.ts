import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  beirFileName,
  beirMarkdown,
  corpusSubset,
  loadBeirDataset,
  parseQrels,
  type BeirDocument,
} from './beir';

function dataset(): string {
  const dir = mkdtempSync(join(tmpdir(), 'beir-'));
  mkdirSync(join(dir, 'qrels'));
  const corpus = ['d1', 'd2', 'd3', 'd4'].map((id) => ({ _id: id, title: `T ${id}`, text: `text ${id}` }));
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const queries = ['q1', 'q2', 'q3'].map((id) => ({ _id: id, text: `query ${id}` }));
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n'));
  writeFileSync(
    join(dir, 'qrels', 'test.tsv'),
    'query-id\tcorpus-id\tscore\nq2\td3\t1\nq1\td1\t2\nq1\td2\t1\n',
  );
  writeFileSync(join(dir, 'qrels', 'train.tsv'), 'query-id\tcorpus-id\tscore\nq3\td4\t1\n');
  return dir;
}

describe('loadBeirDataset', () => {
  it('keeps only the queries judged in the split, in qrels order, with graded judgements', () => {
    const { corpus, queries } = loadBeirDataset(dataset(), 'test');
    expect(corpus.map((d) => d._id)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(queries.map((q) => q.id)).toEqual(['q2', 'q1']);
    expect(queries[1].text).toBe('query q1');
    expect([...queries[1].relevant]).toEqual([
      ['d1', 2],
      ['d2', 1],
    ]);
    expect(loadBeirDataset(dataset(), 'train').queries.map((q) => q.id)).toEqual(['q3']);
  });

  it('refuses qrels naming a query that queries.jsonl lacks', () => {
    const dir = dataset();
    writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq9\td1\t1\n');
    expect(() => loadBeirDataset(dir, 'test')).toThrow(/q9/);
  });
});

describe('parseQrels', () => {
  it('skips the header, blank lines and judgements of 0', () => {
    const qrels = parseQrels('query-id\tcorpus-id\tscore\nq1\td1\t1\r\n\nq1\td2\t0\nq2\td3\t3\n');
    expect([...qrels.keys()]).toEqual(['q1', 'q2']);
    expect([...qrels.get('q1')!]).toEqual([['d1', 1]]);
    expect(qrels.get('q2')!.get('d3')).toBe(3);
  });
});

describe('corpusSubset', () => {
  const corpus: BeirDocument[] = Array.from({ length: 100 }, (_, i) => ({
    _id: `d${i}`,
    title: '',
    text: `${i}`,
  }));
  const queries = [
    { id: 'q1', text: 'a', relevant: new Map([['d50', 1]]) },
    {
      id: 'q2',
      text: 'b',
      relevant: new Map([
        ['d7', 1],
        ['d99', 1],
      ]),
    },
  ];

  it('holds every judged document plus seeded-random others, in corpus order', () => {
    const subset = corpusSubset(corpus, queries, 10, 1);
    expect(subset).toHaveLength(10);
    expect(subset.map((d) => d._id)).toEqual(expect.arrayContaining(['d7', 'd50', 'd99']));
    const order = subset.map((d) => corpus.indexOf(d));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('picks the same subset for the same seed and another for another seed', () => {
    const ids = (seed: number) => corpusSubset(corpus, queries, 10, seed).map((d) => d._id);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(2)).not.toEqual(ids(1));
  });

  it('keeps every judged document even beyond the size, and never exceeds the corpus', () => {
    expect(corpusSubset(corpus, queries, 2).map((d) => d._id)).toEqual(['d7', 'd50', 'd99']);
    expect(corpusSubset(corpus, queries, 1_000)).toHaveLength(100);
  });
});

describe('beirMarkdown', () => {
  it('titles the file with the title, or the start of the text when there is none', () => {
    expect(beirMarkdown({ _id: 'x', title: 'Title', text: 'Body.' })).toBe('# Title\n\nBody.\n');
    expect(beirMarkdown({ _id: 'x', title: '', text: 'a'.repeat(80) })).toBe(
      `# ${'a'.repeat(60)}\n\n${'a'.repeat(80)}\n`,
    );
    expect(beirFileName({ _id: 'rmd-1', title: '', text: '' })).toBe('rmd-1.md');
  });
});
