import { Inject, Injectable } from '@nestjs/common';
import type { ProjectDocuments } from '@trove/catalog';
import { ChunkIndex, type StoredChunk } from '@trove/search';
import { PROJECT_DOCUMENTS } from '../core/catalog.providers';
import { CitationLinks } from '../core/citation-links';
import type { ChunkModel } from './chunk.model';

@Injectable()
export class ChunksService {
  constructor(
    @Inject(PROJECT_DOCUMENTS) private readonly documents: Pick<ProjectDocuments, 'requireDocument'>,
    @Inject(ChunkIndex) private readonly index: ChunkIndex,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  async list(documentId: string): Promise<ChunkModel[]> {
    await this.documents.requireDocument(documentId);
    return (await this.index.getDocumentChunks(documentId)).map((chunk) => this.toModel(chunk));
  }

  async get(id: string): Promise<ChunkModel | undefined> {
    const chunk = await this.index.getChunk(id);
    return chunk && this.toModel(chunk);
  }

  private toModel(chunk: StoredChunk): ChunkModel {
    return {
      id: chunk.chunkId,
      documentId: chunk.documentId,
      position: chunk.position,
      text: chunk.text,
      title: chunk.title,
      headingPath: chunk.headingPath,
      page: chunk.page,
      pageEnd: chunk.pageEnd,
      chapter: chunk.chapter,
      anchor: chunk.anchor,
      citationUrl: this.links.render(chunk.citation, chunk.citationUrl),
      citation: chunk.citation && { ...chunk.citation, url: this.links.render(chunk.citation) },
      tokenCount: chunk.tokenCount,
      language: chunk.language,
      hasCode: chunk.hasCode,
      codeLanguages: chunk.codeLanguages ?? [],
    };
  }
}
