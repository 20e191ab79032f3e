import type { TroveOperations } from '@trove/api-client';
import type { FailureLog } from './tool-result';

/** What every tool works with: the API, as the caller's key sees it, and where to log failures. */
export interface ToolContext {
  client: TroveOperations;
  log: FailureLog;
}

/** The `project` argument every project-bound tool takes. */
export const PROJECT_ARGUMENT_DESCRIPTION =
  'The project: its id or its exact name (see list_projects). Optional when the API key reaches only one project.';
