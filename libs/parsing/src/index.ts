export * from './detect';
export * from './markdown.parser';
export * from './parser-registry';
export * from './plain-text.parser';
export * from './parsed-json.parser';
