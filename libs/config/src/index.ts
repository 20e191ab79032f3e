export * from './config';
export * from './secret-box';
