export * from './chunk-index';
export * from './elasticsearch';
export * from './hybrid-search';
export * from './rank-fusion';
export * from './fusion';
