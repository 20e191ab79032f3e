import { Controller, Delete, Get, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Permission } from '@trove/domain';
import { createTroveMcpServer } from '@trove/mcp-server';
import { Requires } from '../access/access.decorators';
import { MCP_PATH } from '../web/web-routes';
import { InProcessGraphql } from './in-process-operations';

/**
 * Messages one JSON-RPC batch may hold. Each message is a tool call (a search, an answer) run
 * within one HTTP request, so an unbounded batch would multiply one request's cost past the
 * per-request rate limit; MCP clients send one message per request (the 2025-06-18 revision of
 * the specification dropped batching), so this only ever refuses floods.
 */
export const MAX_BATCH_MESSAGES = 20;
/** JSON-RPC 2.0's code for a request that is not a valid one. */
const INVALID_REQUEST = -32600;

/**
 * `/mcp`: Trove's MCP server over Streamable HTTP, stateless (a server and transport per request,
 * JSON answers, no session). The guard admits the caller's API key first (401 without a valid
 * one, rate limit counted); the tools then run the API's GraphQL operations in process under that
 * same key, so each is authorized exactly as the GraphQL operation it runs.
 */
@Controller(MCP_PATH)
export class McpController {
  private readonly logger = new Logger('MCP');

  constructor(@Inject(InProcessGraphql) private readonly graphql: InProcessGraphql) {}

  @Post()
  @Requires(Permission.READ, undefined, { audit: false })
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (Array.isArray(req.body) && req.body.length > MAX_BATCH_MESSAGES) {
      res.status(400).json({
        jsonrpc: '2.0',
        error: {
          code: INVALID_REQUEST,
          message: `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; send more requests instead`,
        },
        id: null,
      });
      return;
    }
    const server = createTroveMcpServer(this.graphql.operationsFor(req), {
      log: (message) => this.logger.warn(message),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  // Stateless: no stream to open for server-initiated messages, and no session to end (the
  // specification's answer for both is 405).
  @Get()
  @Requires(Permission.READ)
  openStream(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @Requires(Permission.READ, undefined, { audit: false })
  endSession(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this server is stateless (POST only)' },
      id: null,
    });
}
