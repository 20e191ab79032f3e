import { Module } from '@nestjs/common';
import { IndexGenerationsResolver } from './index-generations.resolver';
import { IndexGenerationsService } from './index-generations.service';

/** Generations of the chunk index: rebuilding it for another embedding model and swapping it in. */
@Module({
  providers: [IndexGenerationsResolver, IndexGenerationsService],
  exports: [IndexGenerationsService],
})
export class IndexGenerationsModule {}
