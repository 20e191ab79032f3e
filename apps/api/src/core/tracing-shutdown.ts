import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { activeTracing } from '@trove/tracing';

/**
 * Exports the spans still buffered when the api stops (SIGTERM, a rollout): without it the last
 * requests' traces die with the process, as the batch processor sends only every few seconds.
 */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await activeTracing()?.shutdown();
  }
}
