import { Module } from '@nestjs/common';
import { RagConfigModule } from '../rag-config/rag-config.module';
import { SearchResolver } from './search.resolver';
import { SearchService } from './search.service';

@Module({
  imports: [RagConfigModule],
  providers: [SearchResolver, SearchService],
  exports: [SearchService],
})
export class SearchModule {}
