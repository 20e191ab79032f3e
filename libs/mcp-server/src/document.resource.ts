import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  ChunksDocument,
  DocumentDocument,
  DocumentsDocument,
  ProjectsDocument,
  TroveApiError,
} from '@trove/api-client';
import { DOCUMENT_URI_TEMPLATE, documentUri } from './document-uri';
import { documentMarkdown } from './reading-order';
import type { ToolContext } from './tool-context';
import { describeError } from './tool-result';
import { TroveErrorCode } from '@trove/domain';

/** Documents listed per project: a listing is a menu for a person, not an export. */
export const RESOURCES_PER_PROJECT = 200;

/** JSON-RPC error of MCP for an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Documents as resources, `trove://projects/{projectId}/documents/{documentId}`: reading one gives
 * its indexed text in reading order as Markdown under a title line; listing gives the first
 * documents of each project the key reaches.
 */
export function registerDocumentResources(server: McpServer, { client, log }: ToolContext): void {
  const template = new ResourceTemplate(DOCUMENT_URI_TEMPLATE, {
    list: async () => {
      try {
        const { projects } = await client.request(ProjectsDocument);
        const pages = await Promise.all(
          projects.map(async (project) => {
            const { documents } = await client.request(DocumentsDocument, {
              projectId: project.id,
              first: RESOURCES_PER_PROJECT,
            });
            return documents.nodes.map((document) => ({
              uri: documentUri(project.id, document.id),
              name: `${project.name}: ${document.title ?? document.fileName}`,
              title: document.title ?? document.fileName,
              description: `${document.fileName} in ${project.name} (${document.status}, ${document.chunkCount} chunks)`,
              mimeType: 'text/markdown',
            }));
          }),
        );
        return { resources: pages.flat() };
      } catch (error) {
        throw asMcpError(error, log);
      }
    },
  });

  server.registerResource(
    'document',
    template,
    {
      title: 'Trove document',
      description: 'A document’s indexed text in reading order, as Markdown with a title line',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      try {
        const projectId = single(variables.projectId);
        const documentId = single(variables.documentId);
        const { document } = await client.request(DocumentDocument, { id: documentId });
        // A document named under another project is as missing as one that does not exist.
        if (!document || document.projectId !== projectId) {
          throw new TroveApiError(
            `no document ${documentId} in project ${projectId}`,
            TroveErrorCode.DocumentNotFound,
          );
        }
        const { chunks } = await client.request(ChunksDocument, { documentId });
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/markdown',
              text: documentMarkdown(document.title ?? document.fileName, chunks),
            },
          ],
        };
      } catch (error) {
        throw asMcpError(error, log);
      }
    },
  );
}

function single(value: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
}

/** A failure as a JSON-RPC error carrying the API's code and message (never a stack). */
function asMcpError(error: unknown, log: ToolContext['log']): McpError {
  const { code, message } = describeError(error, log);
  const notFound = error instanceof TroveApiError && error.kind === 'not-found';
  return new McpError(notFound ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, `${code}: ${message}`, {
    code,
  });
}
