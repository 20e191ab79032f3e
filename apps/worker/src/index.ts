/** The worker's composition root, for the development tools that run it in their own process. */
export { createWorker } from './worker';
export type { LaneWorkers } from './lanes';
