import { Inject, Injectable } from '@nestjs/common';
import type { SourceRecords, WriteChecks } from '@trove/catalog';
import type { SecretBox } from '@trove/config';
import { SOURCE_RECORDS, WRITE_CHECKS } from '../core/catalog.providers';
import { SECRETS } from '../core/tokens';

/** The verification token of a source's webhook subscription: shown to admins, or forgotten to accept a new one. */
@Injectable()
export class WebhookVerificationService {
  constructor(
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'requireSource' | 'updateSource'>,
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveSource'>,
    /** Unset without TROVE_SECRET_KEY: then no token was stored either. */
    @Inject(SECRETS) private readonly secrets: Pick<SecretBox, 'decrypt'> | undefined,
  ) {}

  async token(sourceId: string): Promise<string | null> {
    const source = await this.sources.requireSource(sourceId);
    return source.webhookToken && this.secrets ? this.secrets.decrypt(source.webhookToken) : null;
  }

  /** Opens the verification window again: the next handshake stores its token. */
  async reset(sourceId: string): Promise<boolean> {
    await this.writeChecks.requireActiveSource(sourceId);
    await this.sources.updateSource(sourceId, {
      webhookToken: null,
      webhookVerificationOpenedAt: new Date().toISOString(),
    });
    return true;
  }
}
