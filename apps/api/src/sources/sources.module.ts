import { Module } from '@nestjs/common';
import { ArchivesController } from './archives.controller';
import { LegacySourceAliasesResolver } from './legacy-source-aliases.resolver';
import { SourceArchivesService } from './source-archives.service';
import { SourceOverviews } from './source-overviews.service';
import { SourcesResolver } from './sources.resolver';
import { SourcesService } from './sources.service';
import { SyncRunHealthService } from './sync-run-health.service';
import { SyncRunUpdates } from './sync-run-updates';
import { SyncRunResolver } from './sync-run.resolver';
import { SyncRunsService } from './sync-runs.service';
import { SyncSchedulesService } from './sync-schedules.service';
import { WebhookVerificationService } from './webhook-verification.service';

/** Sources of every type, their uploaded archives, syncs (runs, schedules, health) and webhook verification. */
@Module({
  controllers: [ArchivesController],
  providers: [
    SourcesResolver,
    LegacySourceAliasesResolver,
    SourcesService,
    SourceArchivesService,
    SourceOverviews,
    SyncRunResolver,
    SyncRunsService,
    SyncRunUpdates,
    SyncRunHealthService,
    SyncSchedulesService,
    WebhookVerificationService,
  ],
})
export class SourcesModule {}
