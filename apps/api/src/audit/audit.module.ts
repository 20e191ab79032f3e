import { Module } from '@nestjs/common';
import { AuditExportController } from './audit-export.controller';
import { AuditRetentionStarter } from './audit-retention.starter';
import { AuditResolver } from './audit.resolver';

/** The audit log in GraphQL and as a JSON Lines export. */
@Module({ providers: [AuditResolver, AuditRetentionStarter], controllers: [AuditExportController] })
export class AuditModule {}
