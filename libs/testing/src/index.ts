export * from './datasets';
