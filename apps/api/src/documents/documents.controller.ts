import type {} from 'multer';
import {
  BadRequestException,
  Controller,
  HttpCode,
  Inject,
  Param,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { StagedFile } from '../uploads/blob-storage.engine';
import { UploadLimitInterceptor } from '../uploads/upload-limit.interceptor';
import { DocumentsService } from './documents.service';
import { AuditAction, Permission } from '@trove/domain';
import { project, Requires } from '../access/access.decorators';

/** Uploads: `POST /v1/projects/:projectId/documents` with multipart field `file`. */
@Controller('v1/projects/:projectId/documents')
export class DocumentsController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @Post()
  @Requires(Permission.WRITE, project('projectId'), { audit: AuditAction.DocumentUploaded })
  @HttpCode(202)
  @UseInterceptors(UploadLimitInterceptor, FileInterceptor('file'))
  async upload(@Param('projectId') projectId: string, @UploadedFile() file?: StagedFile) {
    if (!file) throw new BadRequestException('send the file as the multipart form field "file"');
    const document = await this.documents.upload(projectId, { ...file, fileName: file.originalname });
    return {
      id: document.id,
      projectId: document.projectId,
      fileName: document.fileName,
      mediaType: document.mediaType,
      sizeBytes: document.sizeBytes,
      status: document.status,
    };
  }
}
