import { Inject, Injectable } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import { type ApiConfig, SecretBox } from '@trove/config';
import { CONFIG } from '../core/tokens';

/** The verification token of a source's webhook subscription: shown to admins, or forgotten to accept a new one. */
@Injectable()
export class WebhookVerificationService {
  private readonly secrets?: SecretBox;

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CONFIG) config: ApiConfig,
  ) {
    if (config.secrets.key) this.secrets = new SecretBox(config.secrets.key);
  }

  async token(sourceId: string): Promise<string | null> {
    const source = await this.catalog.requireSource(sourceId);
    return source.webhookToken && this.secrets ? this.secrets.decrypt(source.webhookToken) : null;
  }

  /** Opens the verification window again: the next handshake stores its token. */
  async reset(sourceId: string): Promise<boolean> {
    await this.catalog.requireActiveSource(sourceId);
    await this.catalog.updateSource(sourceId, {
      webhookToken: null,
      webhookVerificationOpenedAt: new Date().toISOString(),
    });
    return true;
  }
}
