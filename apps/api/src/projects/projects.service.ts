import { Inject, Injectable } from '@nestjs/common';
import { Catalog } from '@trove/catalog';
import type { Project } from '@trove/domain';
import { ChunkIndex } from '@trove/search';
import { DocumentsService } from '../documents/documents.service';

@Injectable()
export class ProjectsService {
  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(ChunkIndex) private readonly chunks: ChunkIndex,
    @Inject(DocumentsService) private readonly documents: DocumentsService,
  ) {}

  create(name: string): Promise<Project> {
    return this.catalog.createProject(name);
  }

  list(): Promise<Project[]> {
    return this.catalog.listProjects();
  }

  get(id: string): Promise<Project | undefined> {
    return this.catalog.getProject(id);
  }

  /** Removes the project with every document, chunk and stored file. */
  async delete(id: string): Promise<boolean> {
    await this.catalog.requireProject(id);
    for (const document of await this.catalog.listDocuments(id)) await this.documents.delete(document.id);
    await this.chunks.deleteProjectChunks(id);
    await this.catalog.deleteProject(id);
    return true;
  }
}
