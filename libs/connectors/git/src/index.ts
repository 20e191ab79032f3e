export * from './forge-urls';
export * from './git.connector';
export * from './git.definition';
export * from './git.plugin';
export * from './git.settings';
export * from './git-source';
export * from './git-webhook';
