/**
 * `npm run gate:seed`: indexes each retrieval-gate slice as the gate does (its chunking, the local
 * embedder; vectors from the machine's cache where it has them) and writes the passage vectors
 * that run used as the slice's seed (retrieval-seeds/, committed). A new machine's gate fills its
 * empty cache from the seed instead of embedding every passage; the probe passage checks the seed
 * against the embedder there. Re-run it when the chunking or the embedding model changes (the gate
 * prints how many passages it had to embed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetrievalSlices } from '@trove/evaluation';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { dropTestData, ES_URL, uniqueName } from '../../support/services';
import { gateEmbedder, indexSlice, loadSlice, sliceSeedFile } from '../../support/retrieval-gate';

const { slices } = JSON.parse(
  readFileSync(join(__dirname, 'retrieval-slices.json'), 'utf8'),
) as RetrievalSlices;

async function main(): Promise<void> {
  const prefix = uniqueName('gate-seed');
  const embedder = gateEmbedder(prefix);
  const es = createElasticsearchClient(ES_URL);
  try {
    const index = new ChunkIndex(es, prefix, embedder.dimensions);
    await index.ensure();
    for (const slice of slices) {
      const { corpus } = loadSlice(slice);
      const seed = sliceSeedFile(slice, embedder);
      const counts = await indexSlice(
        slice,
        corpus,
        { index, embedder, projectId: `seed-${slice.name}` },
        true,
        seed,
      );
      console.log(
        `[gate:seed] ${slice.name}: ${counts.cached + counts.embedded} passage vectors ` +
          `(${counts.embedded} embedded now) → ${seed}`,
      );
    }
  } finally {
    await es.close();
    await dropTestData(prefix);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
