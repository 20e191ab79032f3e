import { Controller, Get, Inject } from '@nestjs/common';
import type { ApiConfig } from '@trove/config';
import { Public } from '../access/access.decorators';
import { PEOPLE_WIRING, type PeopleWiring, publicUrlOf } from '../access/people.providers';
import { CONFIG } from '../core/tokens';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from '../web/web-routes';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), as the MCP authorization specification asks
 * of an MCP server: which authorization servers issue tokens for it (the identity providers that
 * have an audience for Trove), so an MCP client can send its person there and come back with a
 * bearer token acting as them. At the path of /mcp, and at the root for clients that look there.
 */
@Controller(PROTECTED_RESOURCE_PATH)
@Public()
export class ProtectedResourceController {
  constructor(
    @Inject(PEOPLE_WIRING) private readonly wiring: PeopleWiring,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get()
  root() {
    return this.metadata(publicUrlOf(this.config));
  }

  @Get(MCP_PATH.slice(1))
  mcp() {
    return this.metadata(`${publicUrlOf(this.config)}${MCP_PATH}`);
  }

  private async metadata(resource: string) {
    const servers = await Promise.all(
      this.wiring.providers
        .bearerProviders()
        .map((provider) => provider.issuer().catch(() => provider.config.issuer)),
    );
    return {
      resource,
      authorization_servers: servers,
      bearer_methods_supported: ['header'],
      scopes_supported: ['openid', 'profile', 'email'],
      resource_name: 'Trove',
      resource_documentation: `${publicUrlOf(this.config)}/playground`,
    };
  }
}
