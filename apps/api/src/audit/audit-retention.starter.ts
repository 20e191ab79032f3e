import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AuditRetention } from '@trove/audit';

/** Purges audit entries past their retention from start-up on (hourly), and stops with the api. */
@Injectable()
export class AuditRetentionStarter implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(AuditRetention) private readonly retention: AuditRetention) {}

  onApplicationBootstrap(): void {
    this.retention.start();
  }

  onModuleDestroy(): void {
    this.retention.stop();
  }
}
