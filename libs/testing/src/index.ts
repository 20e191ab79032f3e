export * from './datasets';
export * from './contract-shape';
