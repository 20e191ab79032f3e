export * from './notion-client';
export * from './notion-reader';
export * from './notion-types';
export * from './render';
export * from './notion-cache';
export * from './notion.connector';
export * from './notion.definition';
