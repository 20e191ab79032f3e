import { Controller, HttpCode, Inject, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../access/access.decorators';
import { clientAddress } from '../access/request-admission';
import { SourceWebhookService } from './source-webhook.service';

/**
 * Webhook deliveries to a source, handed to its type's definition: authenticated by their
 * signature, not by an API key. `/webhooks/<type>/<id>` (the type in lower case) is the address
 * subscriptions were given before the route was generic; it answers the same for a source of
 * that type.
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

  @Post(':type/:sourceId')
  @HttpCode(200)
  async receiveTyped(
    @Param('type') type: string,
    @Param('sourceId') sourceId: string,
    @Req() request: RawBodyRequest<Request>,
  ) {
    return {
      status: await this.webhooks.receive(sourceId, delivery(request), clientAddress(request), type),
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
