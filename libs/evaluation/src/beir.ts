import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One corpus entry or query of a BEIR-layout data set. */
export interface BeirDocument {
  _id: string;
  title: string;
  text: string;
}

/** Relevance judgements: query id → (document id → graded relevance, > 0 means relevant). */
export type Qrels = Map<string, Map<string, number>>;

/** A query of the evaluated split with its judgements. */
export interface EvalQuery {
  id: string;
  text: string;
  relevant: Map<string, number>;
}

/** A BEIR-layout data set restricted to the queries judged in one split. */
export interface BeirDataset {
  corpus: BeirDocument[];
  queries: EvalQuery[];
}

/** Reads a JSON-lines file (one object per non-empty line). */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

/**
 * Parses a BEIR qrels TSV (`query-id<TAB>corpus-id<TAB>score` with a header row). Judgements with
 * score 0 are kept out: BEIR counts only scores > 0 as relevant.
 */
export function parseQrels(tsv: string): Qrels {
  const qrels: Qrels = new Map();
  for (const line of tsv.split('\n').slice(1)) {
    const [query, doc, score] = line.trim().split('\t');
    if (!query || !doc) continue;
    const grade = score === undefined ? 1 : Number(score);
    if (!(grade > 0)) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)!.set(doc, grade);
  }
  return qrels;
}

/**
 * Loads `corpus.jsonl`, `queries.jsonl` and `qrels/<split>.tsv` from `dir`; only the queries judged
 * in that split are returned, in qrels order.
 */
export function loadBeirDataset(dir: string, split = 'test'): BeirDataset {
  const corpus = readJsonl<BeirDocument>(join(dir, 'corpus.jsonl'));
  const texts = new Map(readJsonl<BeirDocument>(join(dir, 'queries.jsonl')).map((q) => [q._id, q.text]));
  const qrels = parseQrels(readFileSync(join(dir, 'qrels', `${split}.tsv`), 'utf8'));
  const queries: EvalQuery[] = [];
  for (const [id, relevant] of qrels) {
    const text = texts.get(id);
    if (text === undefined) throw new Error(`query ${id} of qrels/${split}.tsv is not in queries.jsonl`);
    queries.push({ id, text, relevant });
  }
  return { corpus, queries };
}

/** A small deterministic PRNG (mulberry32): the same seed picks the same subset on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A corpus subset of about `size` documents: every document judged for `queries` (even when that
 * exceeds `size`), then seeded-random others up to `size`. Returned in corpus order.
 */
export function corpusSubset(
  corpus: BeirDocument[],
  queries: EvalQuery[],
  size: number,
  seed = 42,
): BeirDocument[] {
  const keep = new Set(queries.flatMap((q) => [...q.relevant.keys()]));
  const others = corpus.filter((d) => !keep.has(d._id));
  const random = seededRandom(seed);
  // Partial Fisher–Yates: only the first `wanted` positions need shuffling.
  const wanted = Math.max(0, Math.min(others.length, size - keep.size));
  for (let i = 0; i < wanted; i++) {
    const j = i + Math.floor(random() * (others.length - i));
    [others[i], others[j]] = [others[j], others[i]];
    keep.add(others[i]._id);
  }
  return corpus.filter((d) => keep.has(d._id));
}

/**
 * The Markdown file a corpus entry is ingested as: its title as the heading (the first 60
 * characters of the text when it has none, as in RuMedDaNet), then the text.
 */
export function beirMarkdown(doc: BeirDocument): string {
  return `# ${doc.title || doc.text.slice(0, 60)}\n\n${doc.text}\n`;
}

/** The file name a corpus entry is ingested under: its id, so hits map back to qrels ids. */
export function beirFileName(doc: BeirDocument): string {
  return `${doc._id}.md`;
}
