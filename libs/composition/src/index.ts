export * from './core-services';
