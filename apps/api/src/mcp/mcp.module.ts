import { Module } from '@nestjs/common';
import { InProcessGraphql } from './in-process-operations';
import { McpController } from './mcp.controller';

/** `/mcp`: the MCP tools over Streamable HTTP, running the API's operations in process. */
@Module({ controllers: [McpController], providers: [InProcessGraphql] })
export class McpModule {}
