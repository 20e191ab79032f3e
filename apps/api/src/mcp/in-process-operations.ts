import { Inject, Injectable, Logger } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { Request } from 'express';
import { execute } from 'graphql';
import {
  apiErrorFrom,
  type OperationVariables,
  type TroveOperations,
  type TypedDocumentString,
} from '@trove/api-client';
import type { ApiConfig } from '@trove/config';
import type { GraphqlContext } from '../access/request-principal';
import {
  checkDocument,
  type DocumentChecks,
  formatExecutionError,
  graphqlProtection,
} from '../core/graphql-limits';
import { CONFIG } from '../core/tokens';

/**
 * The API's GraphQL operations run inside the api, for the MCP endpoint's tools: no loopback
 * request, and the same resolvers, guards and services as `POST /graphql`.
 */
@Injectable()
export class InProcessGraphql {
  private readonly logger = new Logger('GraphQL');
  private readonly protection: DocumentChecks;

  constructor(
    @Inject(GraphQLSchemaHost) private readonly schemas: GraphQLSchemaHost,
    @Inject(CONFIG) config: Pick<ApiConfig, 'graphql'>,
  ) {
    this.protection = graphqlProtection(config.graphql);
  }

  /**
   * The operations as the caller of `request` may run them: each resolver's guard finds the key
   * this request was admitted with (so it is counted once) and checks its role and projects
   * exactly as over HTTP; a closed request stops the work.
   */
  operationsFor(request: Request): TroveOperations {
    return {
      request: <TResult, TVariables>(
        document: TypedDocumentString<TResult, TVariables>,
        ...[variables]: OperationVariables<TVariables>
      ) => this.run<TResult>(document.toString(), variables, { req: request }),
    };
  }

  /**
   * Checked with the limits of HTTP, run against the running schema, errors formatted as Apollo
   * formats them; variables and data pass through JSON as they would over HTTP.
   */
  private async run<TResult>(query: string, variables: unknown, context: GraphqlContext): Promise<TResult> {
    const schema = this.schemas.schema;
    const log = (line: string) => this.logger.warn(line);
    const checked = checkDocument(schema, query, this.protection);
    if ('errors' in checked) {
      throw apiErrorFrom(400, { errors: checked.errors.map((error) => formatExecutionError(error, log)) });
    }
    const result = await execute({
      schema,
      document: checked.document,
      variableValues: JSON.parse(JSON.stringify(variables ?? {})) as Record<string, unknown>,
      contextValue: context,
    });
    if (result.errors?.length || !result.data) {
      throw apiErrorFrom(200, {
        errors: (result.errors ?? []).map((error) => formatExecutionError(error, log)),
      });
    }
    return JSON.parse(JSON.stringify(result.data)) as TResult;
  }
}
