export * from './browser';
export * from './trove-client';
