export * from './errors';
export * from './ids';
export * from './redact';
export * from './ingest';
export * from './model';
export * from './ports';
export * from './sync';
export * from './project-name';
