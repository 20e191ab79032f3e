import { type DynamicModule, Module } from '@nestjs/common';
import type { ApiConfig } from '@trove/config';
import { CoreModule } from './core/core.module';
import { FEATURE_MODULES } from './features';

/** The API: the feature modules over the global CoreModule built from config. Wiring only. */
@Module({})
export class AppModule {
  static forRoot(config: ApiConfig): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(config), ...FEATURE_MODULES] };
  }
}
