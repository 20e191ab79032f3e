export * from './index-generations';
