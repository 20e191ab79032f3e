import type {} from 'multer';
import {
  BadRequestException,
  Body,
  Controller,
  HttpCode,
  Inject,
  Param,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { AuditAction, Permission, type SourceDefinitions } from '@trove/domain';
import { SOURCE_DEFINITIONS } from '../core/tokens';
import type { StagedFile } from '../uploads/blob-storage.engine';
import { UploadLimitInterceptor } from '../uploads/upload-limit.interceptor';
import { type ArchiveOptions, SourceArchivesService } from './source-archives.service';
import { project, Requires } from '../access/access.decorators';

/**
 * `POST /v1/projects/:projectId/archives`, multipart: `file` (a .zip of a folder) and optional
 * `sourceId` (replace that source's archive), `name`, `format` (AUTO, MKDOCS, FILES), `siteUrl`.
 * Answers 202 with the source and the sync run it started (the source's id is what later calls
 * need; the archive's storage key stays inside).
 */
@Controller('v1/projects/:projectId/archives')
export class ArchivesController {
  constructor(
    @Inject(SourceArchivesService) private readonly archives: SourceArchivesService,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
  ) {}

  @Post()
  @Requires(Permission.WRITE, project('projectId'), { audit: AuditAction.SourceAdded })
  @HttpCode(202)
  @UseInterceptors(UploadLimitInterceptor, FileInterceptor('file'))
  async upload(
    @Param('projectId') projectId: string,
    @Body() fields: ArchiveOptions,
    @UploadedFile() file?: StagedFile,
  ) {
    if (!file) throw new BadRequestException('send the .zip as the multipart form field "file"');
    const { source, run } = await this.archives.upload(
      projectId,
      { ...file, fileName: file.originalname },
      fields,
    );
    return {
      source: {
        id: source.id,
        projectId: source.projectId,
        name: source.name,
        type: source.type,
        summary: this.definitions.summary(source.type, source.config),
        // The configuration as GraphQL's `Source.config` shows it: no secrets, no storage keys.
        config: this.definitions.publicConfig(source.type, source.config),
      },
      run: { id: run.id, status: run.status, mode: run.mode },
    };
  }
}
