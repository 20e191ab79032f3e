export * from './spans';
export * from './temporal';
export * from './tracing';
