import { Controller, Headers, HttpCode, Inject, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../access/access.decorators';
import { clientAddress } from '../access/request-admission';
import { NotionWebhookService } from './notion-webhook.service';

/** Notion webhook deliveries: authenticated by their signature, not by an API key. */
@Controller('webhooks/notion')
@Public()
export class NotionWebhookController {
  constructor(@Inject(NotionWebhookService) private readonly webhooks: NotionWebhookService) {}

  @Post(':sourceId')
  @HttpCode(200)
  async receive(
    @Param('sourceId') sourceId: string,
    @Req() request: RawBodyRequest<Request>,
    @Headers('x-notion-signature') signature?: string,
  ) {
    return {
      status: await this.webhooks.receive(sourceId, request.rawBody, signature, clientAddress(request)),
    };
  }
}
