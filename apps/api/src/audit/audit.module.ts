import { Module } from '@nestjs/common';
import { AuditExportController } from './audit-export.controller';
import { AuditResolver } from './audit.resolver';

/** The audit log in GraphQL and as a JSON Lines export. */
@Module({ providers: [AuditResolver], controllers: [AuditExportController] })
export class AuditModule {}
