import { Module } from '@nestjs/common';
import { MetricsCollectors } from './metrics-collectors';
import { MetricsController } from './metrics.controller';

@Module({ controllers: [MetricsController], providers: [MetricsCollectors] })
export class MetricsModule {}
