import type { TroveWorkflows } from '@trove/domain';

export * from './ingest-document.workflow';
export * from './source-events.workflow';
export * from './sync-source.workflow';
export * from './ingest-uploads.workflow';
export * from './deletion.workflow';

/** Accepts only a type that implements every workflow of the contract. */
type Implements<T extends TroveWorkflows> = T;

/**
 * Compile-time check (types only, nothing runs) that this module exports every workflow of the
 * shared contract under its name, with compatible parameters and result: the worker registers
 * workflows by export name, so renaming one or changing its parameters breaks this build instead
 * of a start in production.
 */
export type WorkflowsModule = Implements<typeof import('./index')>;
export * from './rebuild-index.workflow';
