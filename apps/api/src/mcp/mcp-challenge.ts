import type { RequestHandler } from 'express';

/**
 * Adds `WWW-Authenticate: Bearer resource_metadata="…"` to every 401 of /mcp (RFC 9728 §5.1, as
 * the MCP authorization specification asks): a client without a valid token finds the
 * protected-resource metadata, and from it the authorization server to get one from.
 */
export function mcpChallenge(metadataUrl: string): RequestHandler {
  const challenge = `Bearer resource_metadata="${metadataUrl}"`;
  return (_request, response, next) => {
    const writeHead = response.writeHead;
    response.writeHead = function (this: typeof response, status: number, ...rest: unknown[]) {
      if (status === 401 && !this.headersSent) this.setHeader('WWW-Authenticate', challenge);
      return (writeHead as (...args: unknown[]) => typeof response).apply(this, [status, ...rest]);
    } as typeof response.writeHead;
    next();
  };
}
