import { describe, expect, it } from 'vitest';
import { SearchMode } from '@trove/domain';
import { type EvalQuery } from './beir';
import { evaluateRetrieval, rankQuery, type RankingRequest, scoreRankings } from './rank-documents';

/** A search fake returning chunk hits of documents in a fixed order, recording its requests. */
class FixedSearch {
  readonly requests: RankingRequest[] = [];
  constructor(private readonly order: string[]) {}
  searchWithReport(request: RankingRequest, options?: { label: string }) {
    this.requests.push(request);
    const cap = request.results?.maxPerDocument ?? 0;
    const seen = new Map<string, number>();
    const hits = this.order
      .filter((id) => {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        return cap === 0 || seen.get(id)! <= cap;
      })
      .slice(0, request.limit)
      .map((documentId) => ({ documentId }));
    return Promise.resolve({ hits, label: options?.label });
  }
}

const query = (id: string, relevant: string[]): EvalQuery => ({
  id,
  text: `text of ${id}`,
  relevant: new Map(relevant.map((d) => [d, 1])),
});

describe('evaluateRetrieval (the one search-and-score path of npm run eval and the gate)', () => {
  it('ranks documents by default: one hit per document, as BEIR judgements expect', async () => {
    // Chunks: a, a, a, ..., then the relevant r at chunk rank 12 but document rank 3.
    const order = ['a', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'r'];
    const search = new FixedSearch(order);
    const { scores, runs } = await evaluateRetrieval(search, [query('q1', ['r'])], {
      projectId: 'p',
      mode: SearchMode.HYBRID,
    });
    expect(search.requests[0]).toMatchObject({ limit: 10, results: { maxPerDocument: 1 } });
    expect(runs[0].ranking).toEqual(['a', 'b', 'r']);
    expect(scores.ndcg10).toBeCloseTo(1 / Math.log2(4), 10);
    expect(scores.recall10).toBe(1);
  });

  it('ranks chunks with perDocument 0, so a document with many chunks crowds the top 10', async () => {
    const order = ['a', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'r'];
    const { scores } = await evaluateRetrieval(new FixedSearch(order), [query('q1', ['r'])], {
      projectId: 'p',
      mode: SearchMode.HYBRID,
      perDocument: 0,
    });
    expect(scores.recall10).toBe(0);
  });

  it('maps hits to corpus ids, scores Recall@100 on the deep list and reports every top-10 call', async () => {
    const order = [...Array.from({ length: 30 }, (_, i) => `doc-n${i}`), 'doc-r'];
    const seen: { label?: string; ms: number }[] = [];
    let calls = 0;
    const { scores, runs } = await evaluateRetrieval(new FixedSearch(order), [query('q1', ['r'])], {
      projectId: 'p',
      mode: SearchMode.KEYWORD,
      corpusId: (id) => id.replace(/^doc-/, ''),
      deepLimit: 100,
      options: () => ({ label: `call ${++calls}` }),
      observe: ({ outcome, ms }) => seen.push({ label: outcome.label, ms }),
    });
    expect(runs[0].ranking).toHaveLength(10);
    expect(runs[0].deep).toContain('r');
    expect(scores.recall10).toBe(0);
    expect(scores.recall100).toBe(1);
    // Only the top-10 call is observed (timed); the deep call gets options of its own.
    expect(seen.map((s) => s.label)).toEqual(['call 1']);
    expect(calls).toBe(2);
  });

  it('gives the same figures query by query (rankQuery + scoreRankings) as over the whole list', async () => {
    const order = ['a', 'r', 'b', 's', 'c'];
    const queries = [query('q1', ['r']), query('q2', ['s', 'x']), query('q3', ['z'])];
    const settings = { projectId: 'p', mode: SearchMode.HYBRID, deepLimit: 100 };
    const whole = await evaluateRetrieval(new FixedSearch(order), queries, settings);
    const runs = [];
    for (const q of queries) runs.push(await rankQuery(new FixedSearch(order), q, settings));
    expect(runs).toEqual(whole.runs);
    expect(scoreRankings(runs)).toEqual(whole.scores);
  });
});
