import { type FieldProblem, fieldProblemsOf } from '@trove/api-client/src/api-error';

/** An error the API answered with: its stable code and its human message (never a stack). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
    /** An invalid source configuration: each field at fault, for the form to show beside it. */
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get unauthenticated(): boolean {
    return this.code === 'UNAUTHENTICATED' || this.status === 401;
  }
}

/** What to show for any failure: the API's message, or a short description of a network fault. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'The API could not be reached (is it running?)';
  return 'Something went wrong';
}

/** Reads an error body of either protocol: GraphQL `errors[]` or REST `{ error: { code, message } }`. */
export function apiErrorFrom(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object') {
    const graphql = (
      body as { errors?: { message?: string; extensions?: { code?: string; problems?: unknown } }[] }
    ).errors?.[0];
    if (graphql?.message)
      return new ApiError(
        graphql.message,
        graphql.extensions?.code ?? 'ERROR',
        status,
        fieldProblemsOf(graphql.extensions?.problems),
      );
    const rest = (body as { error?: { code?: string; message?: string } }).error;
    if (rest?.message) return new ApiError(rest.message, rest.code ?? `HTTP_${status}`, status);
  }
  return new ApiError(`The API answered ${status}`, `HTTP_${status}`, status);
}
