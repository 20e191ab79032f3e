/**
 * The keyword (BM25) leg alone, on whole BEIR corpora, in a couple of minutes: documents go
 * through the real Markdown parser and chunker into an index with the product's chunk mapping
 * (no vectors, so nothing is embedded), then every query of a split runs under each BM25 query
 * shape — the product's (`keywordQuery`) and the alternatives it was chosen against. Hits are
 * chunks; a document counts at its best rank, as in `npm run eval`.
 *
 *   npm run eval:keyword -- --dataset beir_scifact --split train
 *
 * Choose on `train`, report on `test`. Writes a section of BENCHMARKS.md per data set and split.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import { detectLanguage } from '@trove/domain';
import { beirFileName, beirMarkdown, loadBeirDataset, percentile, scoreRuns } from '@trove/evaluation';
import { MarkdownParser } from '@trove/parsing';
import { chunkMappings, createElasticsearchClient, keywordQuery } from '@trove/search';
import { datasetDir, writeBenchmarkSections } from '@trove/tools-support';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'beir_scifact' },
    split: { type: 'string', default: 'train' },
    /** Rebuild the BM25 index even if one for this data set exists. */
    rebuild: { type: 'boolean', default: false },
  },
});

const ALL_ANALYSES = ['', '.en', '.ru', '.cjk'];
const languageSub = (query: string) => {
  const language = detectLanguage(query);
  return language === 'und' ? '' : `.${language}`;
};
const boosted = (field: string, boost: number) => (boost === 1 ? field : `${field}^${boost}`);

/** BM25 query shapes, by name: the product's first. */
const SHAPES: Record<string, (query: string) => object> = {
  'product: combined_fields, query language (title 2, heading 1.5)': (q) => keywordQuery(q),
  'combined_fields, query language, no boosts': (q) => keywordQuery(q, { title: 1, heading: 1 }),
  'combined_fields, query language (title 3, heading 2)': (q) => keywordQuery(q, { title: 3, heading: 2 }),
  'combined_fields, standard analysis only': (q) => ({
    combined_fields: { query: q, fields: ['text', 'title^2', 'headingPath^1.5'] },
  }),
  'best_fields (tie 0.5), query language': (q) => {
    const sub = languageSub(q);
    return {
      multi_match: {
        query: q,
        fields: [`text${sub}`, boosted(`title${sub}`, 2), boosted(`headingPath${sub}`, 1.5)],
        type: 'best_fields',
        tie_breaker: 0.5,
      },
    };
  },
  'before: best_fields (tie 0.3) over every analysis': (q) => ({
    multi_match: {
      query: q,
      fields: [
        ...ALL_ANALYSES.map((s) => `text${s}`),
        ...ALL_ANALYSES.map((s) => `title${s}^2`),
        ...ALL_ANALYSES.map((s) => `headingPath${s}^1.5`),
      ],
      type: 'best_fields',
      tie_breaker: 0.3,
    },
  }),
};

const es = createElasticsearchClient(`http://127.0.0.1:${process.env.TROVE_ES_PORT ?? '9200'}`);

async function buildIndex(index: string, corpus: ReturnType<typeof loadBeirDataset>['corpus']) {
  if (!args.rebuild && (await es.indices.exists({ index }))) {
    const { count } = await es.count({ index });
    console.log(`[eval:keyword] reusing ${index} (${count} chunks)`);
    return count;
  }
  await es.indices.delete({ index, ignore_unavailable: true });
  await es.indices.create({ index, mappings: chunkMappings(384), settings: { refresh_interval: '-1' } });
  const parser = new MarkdownParser();
  // The product's default chunking, as `npm run eval` ingests with.
  const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
  let operations: object[] = [];
  let chunks = 0;
  const flush = async () => {
    if (operations.length === 0) return;
    const response = await es.bulk({ operations });
    if (response.errors) throw new Error('bulk indexing failed: ' + JSON.stringify(response.items[0]));
    operations = [];
  };
  const indexedAt = new Date().toISOString();
  for (const doc of corpus) {
    const parsed = parser.parseText(beirFileName(doc), beirMarkdown(doc)).document;
    for (const chunk of chunker.chunk(parsed, { documentId: doc._id, projectId: 'eval' })) {
      const {
        id,
        documentId,
        position,
        title,
        headingPath,
        text,
        language,
        tokenCount,
        hasCode,
        contentHash,
      } = chunk;
      operations.push(
        { index: { _index: index, _id: id } },
        {
          chunkId: id,
          projectId: 'eval',
          documentId,
          position,
          title,
          headingPath,
          text,
          language,
          tokenCount,
          hasCode,
          contentHash,
          embeddingModel: 'none',
          indexedAt,
        },
      );
      chunks += 1;
      if (operations.length >= 2_000) await flush();
    }
  }
  await flush();
  await es.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
  await es.indices.refresh({ index });
  console.log(`[eval:keyword] indexed ${corpus.length} documents as ${chunks} chunks into ${index}`);
  return chunks;
}

async function main() {
  const dir = datasetDir(args.dataset!);
  const dataset = basename(dir);
  const split = args.split!;
  const { corpus, queries } = loadBeirDataset(dir, split);
  const index = `trove-eval-keyword-${dataset.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const chunks = await buildIndex(index, corpus);

  const rows: string[] = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const runs = [];
    const took: number[] = [];
    for (const query of queries) {
      const response = await es.search<{ documentId: string }>({
        index,
        size: 100,
        query: shape(query.text),
        _source: ['documentId'],
      });
      took.push(response.took);
      runs.push({
        ranking: response.hits.hits.map((hit) => hit._source!.documentId),
        judged: query.relevant,
      });
    }
    const s = scoreRuns(runs);
    const cells = [s.ndcg10, s.recall10, s.recall100, s.mrr10].map((v) => v.toFixed(3));
    console.log(`[eval:keyword] ${name}: nDCG@10 ${cells[0]}`);
    rows.push(`| ${name} | ${cells.join(' | ')} | ${percentile(took, 95)} |`);
  }

  const command = `npm run eval:keyword -- ${process.argv.slice(2).join(' ')}`.trim();
  writeBenchmarkSections(
    command,
    `## Keyword query (npm run eval:keyword): ${dataset}, ${split}

The BM25 leg alone on the full corpus (${corpus.length} documents, ${chunks} chunks through the real parser and chunker, the product's
chunk mapping, an index of its own), ${queries.length} \`${split}\` queries; a document counts at its best-ranked chunk. Query shapes are
chosen on the train split only. "Took" is Elasticsearch's own time per query.

| query shape | nDCG@10 | R@10 | R@100 | MRR@10 | took p95 ms |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
