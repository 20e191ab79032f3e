import { Controller, Get, Inject, Logger, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { CatalogHealth } from '@trove/catalog';
import type { EmbeddingProvider } from '@trove/domain';
import { CATALOG_HEALTH } from '../core/catalog.providers';
import { Public } from '../access/access.decorators';
import { ELASTICSEARCH, EMBEDDER, WORKFLOWS } from '../core/tokens';
import type { WorkflowServiceHealth } from '../core/workflows';

/** What readiness asks Elasticsearch (the client, or a fake in tests). */
export interface ClusterHealthProbe {
  cluster: { health(params: { timeout: string }): Promise<unknown> };
}

type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string };
type Checks = Record<'postgresql' | 'elasticsearch' | 'temporal' | 'embedder', Check>;

/**
 * How long a readiness result is reused. /readyz is public and costs three backend calls, so
 * a burst of probes (or of anonymous requests) must not become a burst of backend calls; a
 * second and a half is still fresher than any orchestrator's probe period.
 */
export const READINESS_CACHE_MS = 1500;

@Controller()
@Public()
export class HealthController {
  private readonly logger = new Logger('Health');
  private inFlight?: Promise<Checks>;
  private last?: { at: number; checks: Checks };

  constructor(
    @Inject(ELASTICSEARCH) private readonly es: ClusterHealthProbe,
    @Inject(WORKFLOWS) private readonly temporal: WorkflowServiceHealth,
    @Inject(EMBEDDER) private readonly embedder: Pick<EmbeddingProvider, 'ping'>,
    @Inject(CATALOG_HEALTH) private readonly catalog: CatalogHealth,
  ) {}

  /** Liveness: the process is up. */
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL, Elasticsearch, Temporal and the embedding server all answer. 503 otherwise. */
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) response: Pick<Response, 'status'>) {
    const checks = await this.readiness();
    const ready = Object.values(checks).every((c) => c.ok);
    response.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks };
  }

  /** The last result while fresh; otherwise one check shared by every concurrent caller. */
  private readiness(): Promise<Checks> {
    if (this.last && Date.now() - this.last.at < READINESS_CACHE_MS) return Promise.resolve(this.last.checks);
    this.inFlight ??= this.checkAll().then((checks) => {
      this.last = { at: Date.now(), checks };
      this.inFlight = undefined;
      return checks;
    });
    return this.inFlight;
  }

  private async checkAll(): Promise<Checks> {
    const [postgresql, elasticsearch, temporal, embedder] = await Promise.all([
      this.check('postgresql', () => this.catalog.ping()),
      this.check('elasticsearch', () => this.es.cluster.health({ timeout: '2s' })),
      this.check('temporal', () => this.temporal.ping()),
      this.check('embedder', () => this.embedder.ping()),
    ]);
    return { postgresql, elasticsearch, temporal, embedder };
  }

  /**
   * The probe is public: it says whether a dependency answers, never why not (a backend's error
   * names its host and port); the reason goes to the log.
   */
  private async check(name: string, probe: () => Promise<unknown>): Promise<Check> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new ProbeTimeout()), PROBE_TIMEOUT_MS);
        }),
      ]);
      return { ok: true, ms: Date.now() - started };
    } catch (error) {
      const timedOut = error instanceof ProbeTimeout;
      this.logger.warn(
        `readiness: ${name} ${timedOut ? 'timed out' : `failed: ${(error as Error).message}`}`,
      );
      return { ok: false, ms: Date.now() - started, error: timedOut ? 'timed out' : 'unavailable' };
    } finally {
      clearTimeout(timer);
    }
  }
}

const PROBE_TIMEOUT_MS = 3000;

class ProbeTimeout extends Error {}
