import { Controller, HttpCode, Inject, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../access/access.decorators';
import { clientAddress } from '../access/request-admission';
import { SourceWebhookService } from './source-webhook.service';

/**
 * Webhook deliveries to a source, handed to its type's definition: authenticated by their
 * signature, not by an API key. `/webhooks/notion/<id>` is the address Notion subscriptions were
 * given before the route was generic; it answers the same.
 */
@Controller('webhooks')
@Public()
export class SourceWebhookController {
  constructor(@Inject(SourceWebhookService) private readonly webhooks: SourceWebhookService) {}

  @Post(':sourceId')
  @HttpCode(200)
  async receive(@Param('sourceId') sourceId: string, @Req() request: RawBodyRequest<Request>) {
    return { status: await this.webhooks.receive(sourceId, delivery(request), clientAddress(request)) };
  }

  @Post('notion/:sourceId')
  @HttpCode(200)
  async receiveNotion(@Param('sourceId') sourceId: string, @Req() request: RawBodyRequest<Request>) {
    return {
      status: await this.webhooks.receive(sourceId, delivery(request), clientAddress(request), 'notion'),
    };
  }
}

function delivery(request: RawBodyRequest<Request>) {
  return {
    body: request.rawBody,
    header: (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}
