export * from './combined-markdown';
export { loadMkDocsConfig, parseMkDocsYaml } from './mkdocs-config';
export type { LoadedMkDocsConfig, MkDocsConfig } from './mkdocs-config';
export * from './mkdocs-page';
export * from './mkdocs-project';
export { buildNav, dirnameToTitle, pageName } from './nav';
export type { NavContext, NavPage } from './nav';
export * from './path-patterns';
export * from './slugify';
