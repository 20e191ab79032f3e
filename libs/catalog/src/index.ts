export * from './catalog';
export * from './webhook-events';
