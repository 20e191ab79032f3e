export * from './sitemap';
export * from './url-safety';
export * from './urls';
export * from './web-http';
export * from './web.connector';
export * from './web.definition';
export * from './web.plugin';
export * from './web.settings';
