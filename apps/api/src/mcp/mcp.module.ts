import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';

/** `/mcp`: the MCP tools over Streamable HTTP. */
@Module({ controllers: [McpController] })
export class McpModule {}
