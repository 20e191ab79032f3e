import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod/v3';
import {
  ChunkDocument,
  type ChunkFieldsFragment,
  ChunksDocument,
  DocumentDocument,
  DocumentsDocument,
  type DocumentsQuery,
  ReindexDocumentDocument,
  TroveApiError,
} from '@trove/api-client';
import { documentUri } from '../document-uri';
import {
  type ChunkView,
  getChunkOutput,
  type GetChunkOutput,
  getDocumentOutput,
  type GetDocumentOutput,
  type DocumentView,
  listDocumentsOutput,
  type ListDocumentsOutput,
  reindexDocumentOutput,
  type ReindexDocumentOutput,
} from '../output-schemas';
import { resolveProject } from '../project-resolver';
import { renderChunk, renderDocument, renderDocuments } from '../render';
import { PROJECT_ARGUMENT_DESCRIPTION, type ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';
import { TroveErrorCode } from '@trove/domain';

type DocumentNode = DocumentsQuery['documents']['nodes'][number];

export function documentView(document: DocumentNode): DocumentView {
  return {
    id: document.id,
    projectId: document.projectId,
    sourceId: document.sourceId,
    fileName: document.fileName,
    title: document.title,
    mediaType: document.mediaType,
    status: document.status,
    error: document.error,
    warnings: document.warnings,
    chunkCount: document.chunkCount,
    pageCount: document.pageCount,
    sizeBytes: document.sizeBytes,
    language: document.language,
    url: document.url,
    updatedAt: document.updatedAt,
    indexedAt: document.indexedAt,
    resourceUri: documentUri(document.projectId, document.id),
  };
}

export function chunkView(chunk: ChunkFieldsFragment): ChunkView {
  return {
    chunkId: chunk.id,
    documentId: chunk.documentId,
    position: chunk.position,
    title: chunk.title,
    headingPath: chunk.headingPath,
    page: chunk.page,
    citationUrl: chunk.citationUrl,
    text: chunk.text,
  };
}

/**
 * The chunk at `position` and up to `before`/`after` chunks on each side, in reading order, from
 * a document's chunks (in any order).
 */
export function neighbours<T extends { position: number }>(
  chunks: T[],
  position: number,
  before: number,
  after: number,
): { before: T[]; after: T[] } {
  const ordered = [...chunks].sort((a, b) => a.position - b.position);
  const at = ordered.findIndex((chunk) => chunk.position === position);
  if (at === -1) return { before: [], after: [] };
  return {
    before: ordered.slice(Math.max(0, at - before), at),
    after: ordered.slice(at + 1, at + 1 + after),
  };
}

const documentId = z.string().min(1).describe('the document id (from search hits, list_documents)');

export function registerDocumentTools(server: McpServer, { client, log }: ToolContext): void {
  server.registerTool(
    'list_documents',
    {
      title: 'List the documents of a project',
      description:
        'Lists a project’s documents, oldest first, a page at a time, with status (PENDING, INDEXING, READY, FAILED), error, chunk count and resource URI. ' +
        'Use it to see what the knowledge base holds or which documents failed; pass nextCursor as `after` for the next page.',
      inputSchema: {
        project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION),
        first: z.number().int().min(1).max(100).default(20).describe('documents per page, 1 to 100'),
        after: z.string().optional().describe('the nextCursor of the previous page'),
        status: z
          .enum(['PENDING', 'INDEXING', 'READY', 'FAILED'])
          .optional()
          .describe('only documents in this state'),
        source_id: z.string().optional().describe('only documents of this source'),
      },
      outputSchema: listDocumentsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const project = await resolveProject(client, args.project);
        const { documents } = await client.request(DocumentsDocument, {
          projectId: project.id,
          first: args.first,
          after: args.after ?? null,
          status: args.status ?? null,
          sourceId: args.source_id ?? null,
        });
        const result: ListDocumentsOutput = {
          projectId: project.id,
          totalCount: documents.totalCount,
          documents: documents.nodes.map(documentView),
          nextCursor: documents.pageInfo.hasNextPage ? documents.pageInfo.endCursor : null,
        };
        return toolResult(result, renderDocuments(result));
      }, log),
  );

  server.registerTool(
    'get_document',
    {
      title: 'Get a document',
      description:
        'Reports one document: status, error (code and message when FAILED), warnings, chunk count, pages, size, language, source link and per-stage timings. ' +
        'Use it to check an upload or a reindex; read the text itself through the resourceUri.',
      inputSchema: { document_id: documentId },
      outputSchema: getDocumentOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const { document } = await client.request(DocumentDocument, { id: args.document_id });
        if (!document)
          throw new TroveApiError(`no document ${args.document_id}`, TroveErrorCode.DocumentNotFound);
        const result: GetDocumentOutput = { document: documentView(document), timingsMs: document.timings };
        return toolResult(result, renderDocument(result));
      }, log),
  );

  server.registerTool(
    'get_chunk',
    {
      title: 'Read around a chunk',
      description:
        'Returns one chunk (a search hit’s chunkId) with its neighbours in the document: `before` chunks before it and `after` chunks after it, in reading order. ' +
        'Use it to read the context of a promising hit (a definition just above, the steps that follow) without loading the whole document.',
      inputSchema: {
        chunk_id: z.string().min(1).describe('the chunk id (a search hit’s chunkId)'),
        before: z.number().int().min(0).max(10).default(1).describe('neighbouring chunks before it, 0 to 10'),
        after: z.number().int().min(0).max(10).default(1).describe('neighbouring chunks after it, 0 to 10'),
      },
      outputSchema: getChunkOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const { chunk } = await client.request(ChunkDocument, { id: args.chunk_id });
        if (!chunk) throw new TroveApiError(`no chunk ${args.chunk_id}`, 'NOT_FOUND');
        const [{ chunks }, { document }] = await Promise.all([
          args.before + args.after > 0
            ? client.request(ChunksDocument, { documentId: chunk.documentId })
            : Promise.resolve({ chunks: [chunk] }),
          client.request(DocumentDocument, { id: chunk.documentId }),
        ]);
        const around = neighbours(chunks, chunk.position, args.before, args.after);
        const result: GetChunkOutput = {
          chunk: chunkView(chunk),
          before: around.before.map(chunkView),
          after: around.after.map(chunkView),
          documentChunkCount: document?.chunkCount ?? chunks.length,
          resourceUri: documentUri(document?.projectId ?? '', chunk.documentId),
        };
        return toolResult(result, renderChunk(result));
      }, log),
  );

  server.registerTool(
    'reindex_document',
    {
      title: 'Re-index a document',
      description:
        'Parses, chunks and embeds a document again from its stored original (after a parser fix or a settings change, or to retry a FAILED one). ' +
        'Returns at once with status PENDING; follow it with get_document. Needs an EDITOR or ADMIN key.',
      inputSchema: { document_id: documentId },
      outputSchema: reindexDocumentOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      runTool(async () => {
        const { reindexDocument } = await client.request(ReindexDocumentDocument, { id: args.document_id });
        const result: ReindexDocumentOutput = {
          documentId: reindexDocument.id,
          fileName: reindexDocument.fileName,
          status: reindexDocument.status,
        };
        return toolResult(
          result,
          `Re-indexing ${result.fileName} (${result.documentId}): ${result.status}. Follow it with get_document.`,
        );
      }, log),
  );
}
