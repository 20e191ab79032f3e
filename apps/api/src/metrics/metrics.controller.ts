import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ApiConfig } from '@trove/config';
import { accessMessage, accessStatus, metricsAccess, renderMetrics } from '@trove/metrics';
import { Public } from '../access/access.decorators';
import { CONFIG } from '../core/tokens';

/**
 * Prometheus's scrape target. Not behind an API key (a scraper holds none): its own bearer token
 * (TROVE_METRICS_TOKEN); without one, off unless loopback clients are allowed
 * (TROVE_METRICS_ALLOW_LOOPBACK).
 */
@Controller()
@Public()
export class MetricsController {
  constructor(@Inject(CONFIG) private readonly config: Pick<ApiConfig, 'metrics'>) {}

  @Get('metrics')
  async metrics(@Req() request: Request, @Res() response: Response): Promise<void> {
    const decision = metricsAccess(
      { token: this.config.metrics?.token, allowLoopback: this.config.metrics?.allowLoopback },
      { authorization: request.headers.authorization, remoteAddress: request.socket.remoteAddress },
    );
    if (decision !== 'allowed') {
      if (decision === 'unauthenticated') response.setHeader('WWW-Authenticate', 'Bearer');
      response.status(accessStatus(decision)).type('text/plain').send(accessMessage(decision));
      return;
    }
    const { contentType, body } = await renderMetrics();
    response.status(200).setHeader('Content-Type', contentType);
    response.send(body);
  }
}
