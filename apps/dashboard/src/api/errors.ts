import { TroveApiError } from '@trove/api-client/browser';

/** What to show for any failure: the API's message, or a short description of a network fault. */
export function errorMessage(error: unknown): string {
  if (error instanceof TroveApiError) return error.message;
  if (error instanceof TypeError) return 'The API could not be reached (is it running?)';
  return 'Something went wrong';
}
