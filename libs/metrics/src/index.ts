export * from './metrics';
export * from './labels';
export * from './metrics-access';
export * from './metrics-server';
export * from './collectors';
