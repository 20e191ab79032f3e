import type { ApolloServerOptions, BaseContext } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { GraphqlLimits } from '@trove/config';
import { ErrorCode, TroveErrorCode } from '@trove/domain';
import { genericMessageFor } from './trove-exception.filter';

/**
 * A request refused by one of our limits. Apollo re-wraps validation errors with its own code
 * and keeps ours as `originalError`, where formatGraphqlError finds QUERY_TOO_COMPLEX again.
 */
export class QueryLimitError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: TroveErrorCode.QueryTooComplex } });
    this.name = 'QueryLimitError';
  }
}

/** graphql-armor's reject callback: report (do not throw) so Apollo answers 400, not 500. */
function refuse(context: ValidationContext | null, error: GraphQLError): void {
  // armor prefixes every refusal with "Syntax Error:", which these are not.
  context?.reportError(new QueryLimitError(error.message.replace(/^Syntax Error:\s*/, '')));
}

/**
 * At most `max` root fields over all operations of a document. Each root field is one service
 * call (a search is an embedding call), and validation runs for every operation in the document,
 * not only the one executed. Fields reached through fragments count; a fragment counts once.
 */
export function maxOperationsRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      const seenFragments = new Set<string>();
      const rootFields = (set: SelectionSetNode): number =>
        set.selections.reduce((count, selection) => {
          if (selection.kind === Kind.FIELD) return count + 1;
          if (selection.kind === Kind.INLINE_FRAGMENT) return count + rootFields(selection.selectionSet);
          const name = selection.name.value;
          // The set also stops fragment cycles, which a parallel rule reports but does not prevent.
          if (seenFragments.has(name)) return count;
          seenFragments.add(name);
          const fragment = context.getFragment(name);
          return fragment ? count + rootFields(fragment.selectionSet) : count;
        }, 0);
      let found = 0;
      for (const definition of document.definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION) found += rootFields(definition.selectionSet);
      }
      if (found > max) {
        context.reportError(
          new QueryLimitError(`Operations limit of ${max} root fields per request exceeded, found ${found}.`),
        );
      }
      return false; // the count above is all this rule needs
    },
  });
}

/**
 * Apollo options enforcing the limits, built on graphql-armor (depth, aliases, cost, directives,
 * field suggestions) plus the parser's own token cap and Apollo's batching switch.
 */
export function graphqlProtection(limits: GraphqlLimits) {
  const report = { propagateOnRejection: false, onReject: [refuse] };
  const { plugins, validationRules } = new ApolloArmor({
    // Introspection is skipped here: graphql-js's MaxIntrospectionDepthRule (a specified rule)
    // already refuses nested list fields under __schema, which is what multiplies its work.
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ...report },
    maxAliases: { n: limits.maxAliases, ...report },
    costLimit: { maxCost: limits.maxCost, flattenFragments: true, ...report },
    maxDirectives: { ...report },
    // Armor's token plugin throws from parsingDidStart, which Apollo 5 answers with a 500 after
    // parsing twice; the parser's own maxTokens aborts the single parse with a 400 instead.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  }).protect();
  return {
    plugins,
    validationRules: [...validationRules, maxOperationsRule(limits.maxOperations)],
    parseOptions: { maxTokens: limits.maxTokens },
    // One operation per HTTP request: a JSON array of operations is refused with 400.
    allowBatchedHttpRequests: false,
  } satisfies Partial<ApolloServerOptions<BaseContext>>;
}

/** graphql-js's message when the parser's maxTokens is reached (pinned by a unit test). */
const TOKEN_LIMIT = /^Syntax Error: Document contains more th(?:an|at) (\d+) tokens/;

/** graphql-armor's mask for field suggestions (its Apollo plugin; applied to WebSocket answers too). */
const SUGGESTION = /Did you mean ".+"/g;
const SUGGESTION_MASK = '[Suggestion hidden]';

/** The parts of graphqlProtection that check a document (what checkDocument needs). */
export type DocumentChecks = Pick<ReturnType<typeof graphqlProtection>, 'validationRules' | 'parseOptions'>;

/** What a document checked outside Apollo (graphql-ws) comes to: the parsed document or its refusal. */
export type CheckedDocument = { document: DocumentNode } | { errors: GraphQLError[] };

/**
 * The checks Apollo makes of an HTTP request, for an operation that does not go through Apollo
 * (graphql-ws): parsing with the same token cap, then graphql-js's rules with the same limits
 * (graphqlProtection's rules), field suggestions masked. Errors carry the codes HTTP gives.
 */
export function checkDocument(
  schema: GraphQLSchema,
  query: string,
  protection: DocumentChecks,
): CheckedDocument {
  let document: DocumentNode;
  try {
    document = parse(query, protection.parseOptions);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const tokens = TOKEN_LIMIT.exec(message);
    if (tokens) return { errors: [new QueryLimitError(`Token limit of ${tokens[1]} exceeded.`)] };
    return {
      errors: [
        new GraphQLError(message, { extensions: { code: ApolloServerErrorCode.GRAPHQL_PARSE_FAILED } }),
      ],
    };
  }
  const errors = validate(schema, document, [...specifiedRules, ...protection.validationRules]);
  if (errors.length === 0) return { document };
  return {
    errors: errors.map((error) =>
      error.extensions?.code === TroveErrorCode.QueryTooComplex
        ? error
        : new GraphQLError(error.message.replace(SUGGESTION, SUGGESTION_MASK), {
            nodes: error.nodes,
            extensions: { code: ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED },
          }),
    ),
  };
}

/** Codes whose messages are written for clients; anything else is an internal failure. */
const CLIENT_CODES = new Set<string>(Object.values(ErrorCode));

/**
 * Apollo's formatError: a stable code and a human message. Limit refusals get QUERY_TOO_COMPLEX;
 * unknown failures (e.g. a non-null field that resolved to null) get INTERNAL and a generic
 * message, their details going to `log` as one line.
 */
export function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  log: (line: string) => void,
): GraphQLFormattedError {
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  // Duck-typed: under ESM and CommonJS side by side, graphql's classes can exist twice.
  const original = (error as { originalError?: { extensions?: Record<string, unknown> } } | null)
    ?.originalError;
  if (original?.extensions?.code === TroveErrorCode.QueryTooComplex) {
    return { ...base, extensions: { code: TroveErrorCode.QueryTooComplex } };
  }
  const tokens = TOKEN_LIMIT.exec(formatted.message);
  if (tokens) {
    return {
      message: `Token limit of ${tokens[1]} exceeded.`,
      extensions: { code: TroveErrorCode.QueryTooComplex },
    };
  }
  const code = String(formatted.extensions?.code ?? TroveErrorCode.Internal);
  if (CLIENT_CODES.has(code) || /^HTTP_4\d\d$/.test(code)) {
    const problems = fieldProblems(formatted.extensions?.problems);
    return { ...base, extensions: problems ? { code, problems } : { code } };
  }
  log(`${code} at ${formatted.path?.join('.') ?? '(request)'}: ${formatted.message.replace(/\s+/g, ' ')}`);
  return {
    message: genericMessageFor(TroveErrorCode.Internal)!,
    path: formatted.path,
    extensions: { code: TroveErrorCode.Internal },
  };
}

/**
 * An error of an operation run outside Apollo, formatted as Apollo formats it for HTTP clients:
 * without a code it gets Apollo's INTERNAL_SERVER_ERROR, then formatGraphqlError applies.
 */
export function formatExecutionError(
  error: GraphQLError,
  log: (line: string) => void,
): GraphQLFormattedError {
  const json = error.toJSON();
  const code = json.extensions?.code ?? ApolloServerErrorCode.INTERNAL_SERVER_ERROR;
  return formatGraphqlError({ ...json, extensions: { ...json.extensions, code } }, error, log);
}

/** The `problems` of an invalid source configuration ({ field, message } each), or undefined. */
function fieldProblems(value: unknown): { field: string; message: string }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const valid = value.every(
    (problem: { field?: unknown; message?: unknown } | null) =>
      typeof problem?.field === 'string' && typeof problem.message === 'string',
  );
  return valid ? (value as { field: string; message: string }[]) : undefined;
}
