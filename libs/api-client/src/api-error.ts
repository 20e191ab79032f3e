import { type ErrorKind, errorKind, NETWORK_ERROR_CODE } from '@trove/domain';

export { type ErrorKind, errorKind, NETWORK_ERROR_CODE };

/** A field of an invalid source configuration and what is wrong with it (`config.maxPages`, `type`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** An error the API answered with (its stable code and human message), or a network fault. */
export class TroveApiError extends Error {
  constructor(
    message: string,
    /** The API's stable code (`PROJECT_NOT_FOUND`, `FORBIDDEN`, …), or `NETWORK` / `HTTP_<status>`. */
    readonly code: string,
    /** The HTTP status, when the API answered. */
    readonly status?: number,
    /** An invalid source configuration: each field at fault. */
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'TroveApiError';
  }

  /** What the failure means (libs/domain `errorKind`, the API's own classification). */
  get kind(): ErrorKind {
    return errorKind(this.code, this.status);
  }
}

/** Reads an error body of either protocol: GraphQL `errors[]` or REST `{ error: { code, message } }`. */
export function apiErrorFrom(status: number, body: unknown): TroveApiError {
  if (body && typeof body === 'object') {
    const graphql = (
      body as { errors?: { message?: string; extensions?: { code?: string; problems?: unknown } }[] }
    ).errors?.[0];
    if (graphql?.message)
      return new TroveApiError(
        graphql.message,
        graphql.extensions?.code ?? `HTTP_${status}`,
        status,
        fieldProblemsOf(graphql.extensions?.problems),
      );
    const rest = (
      body as { error?: { code?: string; message?: string; problems?: unknown } | string; message?: string }
    ).error;
    if (rest && typeof rest === 'object' && rest.message) {
      return new TroveApiError(
        rest.message,
        rest.code ?? `HTTP_${status}`,
        status,
        fieldProblemsOf(rest.problems),
      );
    }
  }
  return new TroveApiError(`the API answered HTTP ${status}`, `HTTP_${status}`, status);
}

/** The `problems` of an error body (an invalid source configuration's fields), or none. */
export function fieldProblemsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (problem): problem is FieldProblem =>
      typeof (problem as FieldProblem | null)?.field === 'string' &&
      typeof (problem as FieldProblem).message === 'string',
  );
}
