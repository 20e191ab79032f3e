import { Module } from '@nestjs/common';
import { SourceWebhookController } from './source-webhook.controller';
import { SourceWebhookService } from './source-webhook.service';
import { WebhookRefusals } from './webhook-refusals';

/** `/webhooks/<source id>`: deliveries verified by the source type's webhook, handed to its workflow. */
@Module({
  controllers: [SourceWebhookController],
  providers: [SourceWebhookService, WebhookRefusals],
})
export class WebhooksModule {}
