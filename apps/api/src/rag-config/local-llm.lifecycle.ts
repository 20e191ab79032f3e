import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ApiConfig } from '@trove/config';
import {
  createLlmProvider,
  localModel,
  localModelDir,
  releaseLocalModels,
  verifiedModelFile,
} from '@trove/llm';
import { CONFIG } from '../core/tokens';

/**
 * The local LLM's place in the api's life: with TROVE_LLM=local the api refuses to start without
 * its verified model file (saying how to install it), starts loading it in the background so the
 * first question does not wait for it, and frees it at shutdown.
 */
@Injectable()
export class LocalLlmLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('LocalLlm');

  constructor(@Inject(CONFIG) private readonly config: Pick<ApiConfig, 'llm' | 'localLlm'>) {}

  async onModuleInit(): Promise<void> {
    const { llm, localLlm } = this.config;
    if (llm?.provider !== 'local') return;
    const model = localModel(llm.model);
    await verifiedModelFile(model, localModelDir(localLlm?.modelDir));
    const provider = createLlmProvider(llm, localLlm)!;
    const started = performance.now();
    provider.ping().then(
      () => this.logger.log(`${provider.modelId} loaded in ${Math.round(performance.now() - started)} ms`),
      (error: unknown) =>
        this.logger.error(`${provider.modelId} could not be loaded: ${(error as Error).message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await releaseLocalModels();
  }
}
