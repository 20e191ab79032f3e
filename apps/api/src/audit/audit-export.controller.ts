import { once } from 'node:events';
import { Controller, Get, Inject, Logger, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuditRepository } from '@trove/catalog';
import { AuditAction, auditLine, Permission } from '@trove/domain';
import { Requires } from '../access/access.decorators';
import { AUDIT_LOG } from '../core/catalog.providers';
import { clientAbortSignal } from '../core/client-abort';
import { auditFilter } from './audit-filter';

/**
 * `GET /v1/audit.jsonl` (install-wide ADMINs): the audit log as JSON Lines, oldest first, each
 * line one entry in the contract's shape (`auditEventSchema`, @trove/domain), so an export reads
 * back entry for entry. Filters as query parameters (actorId, actorKind, action, outcome,
 * projectId, from, to). The export itself is an entry of the log.
 */
@Controller('v1')
export class AuditExportController {
  private readonly logger = new Logger('Audit');

  constructor(@Inject(AUDIT_LOG) private readonly audit: Pick<AuditRepository, 'each'>) {}

  @Get('audit.jsonl')
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.Exported })
  async export(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const filter = auditFilter(query);
    const signal = clientAbortSignal(req);
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="trove-audit.jsonl"');
    res.setHeader('Cache-Control', 'no-store');
    const events = this.audit.each(filter);
    try {
      for await (const event of events) {
        if (signal.aborted) break;
        if (!res.write(`${auditLine(event)}\n`)) await once(res, 'drain', { signal });
      }
      res.end();
    } catch (error) {
      if (!signal.aborted) {
        this.logger.warn(`audit export failed: ${(error as Error).message}`.replace(/\s+/g, ' '));
        res.destroy(error as Error);
      }
    } finally {
      await events.return(undefined);
    }
  }
}
