import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IndexGenerationRepository } from '@trove/catalog';
import type { ApiConfig, EmbeddingConfig } from '@trove/config';
import {
  type IndexGeneration,
  IndexGenerationStatus,
  rebuildIndexWorkflowId,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { IndexGenerations, publicGeneration } from '@trove/index-generations';
import { INDEX_GENERATION_RECORDS } from '../core/catalog.providers';
import { CONFIG, WORKFLOWS } from '../core/tokens';
import type { WorkflowControl, WorkflowStarts } from '../core/workflows';
import type { EmbeddingModelInput } from './index-generation.model';

/** The embedding model behind the chunk index, and changing it (a background rebuild). */
@Injectable()
export class IndexGenerationsService {
  private readonly logger = new Logger('IndexGenerations');

  constructor(
    @Inject(IndexGenerations) private readonly generations: IndexGenerations,
    @Inject(INDEX_GENERATION_RECORDS)
    private readonly records: Pick<IndexGenerationRepository, 'live' | 'recent' | 'finish' | 'setWorkflow'>,
    @Inject(WORKFLOWS) private readonly workflows: WorkflowStarts & WorkflowControl,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  /** The active generation, the one being built and the latest ones (read fresh, not cached). */
  async status(): Promise<{
    active: IndexGeneration;
    building?: IndexGeneration;
    history: IndexGeneration[];
  }> {
    const live = await this.records.live();
    const active = live.find((g) => g.status === IndexGenerationStatus.ACTIVE);
    if (!active) throw new TroveError(TroveErrorCode.ServiceUnavailable, 'the chunk index is not ready yet');
    const building = live.find((g) => g.status === IndexGenerationStatus.BUILDING);
    return {
      active: publicGeneration(active),
      ...(building ? { building: publicGeneration(building) } : {}),
      history: (await this.records.recent(10)).map(publicGeneration),
    };
  }

  /**
   * Starts rebuilding the index for another embedding model: checks the model answers with the
   * profile's dimensions, records a BUILDING generation and starts `rebuildIndex`. Searches keep
   * using the current model until the new index is complete.
   */
  async change(input: EmbeddingModelInput): Promise<IndexGeneration> {
    // The fields the input names (GraphQL gives absent ones as null), over the environment's profile.
    const chosen = Object.fromEntries(
      Object.entries(input).filter(([, v]) => v !== undefined && v !== null),
    ) as Partial<EmbeddingConfig>;
    const embedding: EmbeddingConfig = {
      ...this.config.embedding,
      apiKey: undefined,
      model: undefined,
      ...chosen,
    };
    const generation = await this.generations.prepareRebuild(embedding);
    const workflowId = rebuildIndexWorkflowId(generation.indexName);
    try {
      await this.workflows.start('rebuildIndex', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId,
        args: [
          {
            generationId: generation.id,
            settleMs: 2 * this.config.elasticsearch.generationsTtlMs + 500,
            graceMs: this.config.elasticsearch.rebuildGraceMs,
          },
        ],
      });
    } catch (error) {
      await this.records.finish(
        generation.id,
        IndexGenerationStatus.FAILED,
        `the rebuild could not be started: ${(error as Error).message}`,
      );
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        `the rebuild could not be started (Temporal): ${(error as Error).message}`,
        { cause: error },
      );
    }
    await this.records.setWorkflow(generation.id, workflowId);
    this.logger.log(`rebuilding the chunk index for ${generation.modelId} (generation ${generation.id})`);
    return { ...generation, workflowId };
  }

  /** Cancels the rebuild under way; its index is dropped and the active generation stays. */
  async cancel(): Promise<IndexGeneration | undefined> {
    const building = (await this.records.live()).find((g) => g.status === IndexGenerationStatus.BUILDING);
    if (!building) return undefined;
    const workflowId = building.workflowId ?? rebuildIndexWorkflowId(building.indexName);
    try {
      await this.workflows.cancel(workflowId);
    } catch {
      // No workflow (it never started, or it is gone): end the generation here.
      await this.records.finish(building.id, IndexGenerationStatus.CANCELLED, 'cancelled');
      this.generations.invalidate();
    }
    return publicGeneration(building);
  }
}
