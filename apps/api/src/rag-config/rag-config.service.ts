import { Inject, Injectable, Logger } from '@nestjs/common';
import { type EffectiveRagConfig, maskedSettings, type RagPatch, RagConfigStore } from '@trove/rag-config';
import { IndexGenerationsService } from '../index-generations/index-generations.service';
import type {
  MaskedSecretModel,
  RagAnswerSettingsModel,
  RagChunkingSettingsModel,
  RagConfigModel,
  RagFusionSettingsModel,
  RagLlmSettingsModel,
  RagRerankSettingsModel,
  UpdateRagConfigInput,
} from './rag-config.model';

/** Reads and changes the RAG settings; an embedding-model change starts an index rebuild. */
@Injectable()
export class RagConfigService {
  private readonly logger = new Logger('RagConfig');

  constructor(
    @Inject(RagConfigStore) private readonly store: RagConfigStore,
    @Inject(IndexGenerationsService) private readonly generations: IndexGenerationsService,
  ) {}

  async get(): Promise<RagConfigModel> {
    return this.view(await this.store.current());
  }

  /**
   * Applies a change as a whole: settings are validated together (an invalid combination changes
   * nothing), then stored; the embedding model, when given, is checked and its rebuild started
   * after the settings are saved.
   */
  async update(input: UpdateRagConfigInput): Promise<RagConfigModel> {
    const { embedding, reset, ...sections } = input;
    const patch: RagPatch = { set: sections as RagPatch['set'], reset: reset ?? [] };
    const changesSettings = Object.keys(sections).length > 0 || (reset?.length ?? 0) > 0;
    const effective = changesSettings ? await this.store.update(patch) : await this.store.current();
    if (changesSettings) {
      // Names of what changed, never values (keys among them).
      const names = [
        ...Object.entries(sections).flatMap(([s, v]) => Object.keys(v ?? {}).map((n) => `${s}.${n}`)),
        ...(reset ?? []).map((p) => `${p} (reset)`),
      ];
      this.logger.log(`settings version ${effective.version}: ${names.join(', ')}`);
    }
    if (embedding) await this.generations.change(embedding);
    return this.view(effective);
  }

  private async view(effective: EffectiveRagConfig): Promise<RagConfigModel> {
    const shown = maskedSettings(effective.settings);
    const secret = (value: string): MaskedSecretModel => ({
      set: value !== '(unset)',
      masked: value === '(unset)' ? undefined : value,
    });
    return {
      version: effective.version,
      updatedAt: effective.updatedAt,
      search: shown.search satisfies RagFusionSettingsModel,
      rerank: { ...shown.rerank, apiKey: secret(shown.rerank.apiKey) } satisfies RagRerankSettingsModel,
      llm: { ...shown.llm, apiKey: secret(shown.llm.apiKey) } satisfies RagLlmSettingsModel,
      answers: shown.answers satisfies RagAnswerSettingsModel,
      chunking: shown.chunking satisfies RagChunkingSettingsModel,
      embedding: await this.generations.status(),
      overridden: [...effective.overridden].sort(),
      warnings: effective.warnings ?? [],
    };
  }
}
