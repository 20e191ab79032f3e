import { once } from 'node:events';
import { Controller, Get, Inject, Logger, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditAction, FEEDBACK_EXPORT_COUNT_HEADER, Permission } from '@trove/domain';
import { project, Requires } from '../access/access.decorators';
import { clientAbortSignal } from '../core/client-abort';
import { FeedbackService } from './feedback.service';

/**
 * `GET /v1/projects/:projectId/feedback.jsonl` (ADMIN keys): every vote of the project as JSON
 * Lines, oldest first, each with its question and the answer's passages with their reranker
 * features (the format of `FeedbackExportLine`, docs/ask.md): what `train-reranker.ts --feedback`
 * reads. The number of lines comes first, in the `x-total-count` header.
 */
@Controller('v1/projects/:projectId')
export class FeedbackController {
  private readonly logger = new Logger('Feedback');

  constructor(@Inject(FeedbackService) private readonly feedback: Pick<FeedbackService, 'export'>) {}

  @Get('feedback.jsonl')
  @Requires(Permission.ADMIN, project('projectId'), { audit: AuditAction.Exported })
  async export(
    @Param('projectId') projectId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const signal = clientAbortSignal(req);
    const { count, lines } = await this.feedback.export(projectId);
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="feedback-${projectId}.jsonl"`);
    res.setHeader(FEEDBACK_EXPORT_COUNT_HEADER, String(count));
    res.setHeader('Cache-Control', 'no-store');
    try {
      for await (const line of lines) {
        if (signal.aborted) break;
        // A slow reader holds the next page back (a client that leaves ends the wait, with AbortError).
        if (!res.write(`${JSON.stringify(line)}\n`)) await once(res, 'drain', { signal });
      }
      res.end();
    } catch (error) {
      if (!signal.aborted) {
        this.logger.warn(`feedback export failed: ${(error as Error).message}`.replace(/\s+/g, ' '));
        // Cut the stream: a client sees a broken download, never a short export that looks whole.
        res.destroy(error as Error);
      }
    } finally {
      await lines.return(undefined);
    }
  }
}
