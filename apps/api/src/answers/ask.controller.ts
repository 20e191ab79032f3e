import { Body, Controller, Inject, Logger, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AskMode,
  type AskStreamEventData,
  type AskStreamEventName,
  isTroveError,
  Permission,
  type Principal,
  TroveErrorCode,
} from '@trove/domain';
import { askDuration, closedLabel, errorCodeLabel, secondsSince } from '@trove/metrics';
import { clientAbortSignal } from '../core/client-abort';
import { genericMessageFor } from '../core/trove-exception.filter';
import { type AskEvent, AskService } from './ask.service';
import { CurrentPrincipal, project, Requires } from '../access/access.decorators';

/**
 * `POST /v1/projects/:projectId/ask/stream`: the answer as Server-Sent Events — `retrieval`
 * (the passages used, and what a follow-up was rewritten into), `delta` (answer text as it is written), `done` (the verified result) or
 * `error`. A request that fails before anything is streamed (bad body, unknown project) gets the
 * usual JSON error; a client that disconnects stops generation.
 */
@Controller('v1/projects/:projectId/ask')
export class AskController {
  private readonly logger = new Logger('Ask');

  constructor(@Inject(AskService) private readonly asks: Pick<AskService, 'stream'>) {}

  @Post('stream')
  @Requires(Permission.READ, project('projectId'), {
    audit: false,
    countsAs: { kind: 'ask', text: 'question' },
  })
  async stream(
    @Param('projectId') projectId: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    const labels = {
      mode: closedLabel(
        (body as { mode?: unknown } | undefined)?.mode ?? AskMode.AUTO,
        Object.values(AskMode),
      ),
      transport: 'stream',
    };
    let outcome = 'ok';
    try {
      await this.answer(projectId, body, principal, req, res, (code) => (outcome = code));
    } catch (error) {
      outcome = errorCodeLabel(error);
      throw error;
    } finally {
      askDuration.observe({ ...labels, outcome }, secondsSince(started));
    }
  }

  /** The stream itself; `failed` learns the code of an error sent as an event. */
  private async answer(
    projectId: string,
    body: unknown,
    principal: Principal,
    req: Request,
    res: Response,
    failed: (code: string) => void,
  ): Promise<void> {
    const signal = clientAbortSignal(req);
    const events = await this.asks.stream(projectId, body, principal, signal);
    // The first event (or the first failure: a bad topK, a search error) decides between a
    // stream and a plain JSON error.
    const first = await events.next();
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    try {
      if (!first.done) send(res, first.value);
      for await (const event of events) {
        if (signal.aborted) break;
        send(res, event);
      }
    } catch (error) {
      if (!signal.aborted) {
        const code = isTroveError(error) ? error.code : TroveErrorCode.Internal;
        failed(code);
        const message = genericMessageFor(code) ?? (error as Error).message;
        this.logger.warn(`ask stream failed: ${code}: ${(error as Error).message}`.replace(/\s+/g, ' '));
        writeEvent(res, 'error', { code, message });
      }
    } finally {
      await events.return(undefined);
      res.end();
    }
  }
}

function send(res: Response, event: AskEvent): void {
  switch (event.type) {
    case 'retrieval':
      writeEvent(res, 'retrieval', {
        passages: event.passages.map(({ hit: _hit, ...passage }) => passage),
        ...(event.standaloneQuestion !== undefined && { standaloneQuestion: event.standaloneQuestion }),
      });
      return;
    case 'delta':
      writeEvent(res, 'delta', { text: event.text, attempt: event.attempt });
      return;
    case 'done':
      writeEvent(res, 'done', event.result);
      return;
  }
}

/** One SSE event: its name and one line of JSON (JSON never holds a raw newline). */
function writeEvent<N extends AskStreamEventName>(res: Response, name: N, data: AskStreamEventData[N]): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}
