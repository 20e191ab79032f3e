import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import type { Client as TemporalClient } from '@temporalio/client';
import type { EmbeddingProvider } from '@trove/domain';
import { Public } from '../core/api-key.guard';
import { ELASTICSEARCH, EMBEDDER, TEMPORAL } from '../core/tokens';

type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string };

@Controller()
@Public()
export class HealthController {
  constructor(
    @Inject(ELASTICSEARCH) private readonly es: ElasticsearchClient,
    @Inject(TEMPORAL) private readonly temporal: TemporalClient,
    @Inject(EMBEDDER) private readonly embedder: EmbeddingProvider,
  ) {}

  /** Liveness: the process is up. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** Readiness: Elasticsearch, Temporal and the embedding server all answer. 503 otherwise. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) response: Response) {
    const [elasticsearch, temporal, embedder] = await Promise.all([
      check(() => this.es.cluster.health({ timeout: '2s' })),
      check(() => this.temporal.connection.workflowService.getSystemInfo({})),
      check(() => this.embedder.ping()),
    ]);
    const checks = { elasticsearch, temporal, embedder };
    const ready = Object.values(checks).every((c) => c.ok);
    response.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks };
  }
}

async function check(probe: () => Promise<unknown>): Promise<Check> {
  const started = Date.now();
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 3s')), 3000).unref()),
    ]);
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    return { ok: false, ms: Date.now() - started, error: (error as Error).message };
  }
}
