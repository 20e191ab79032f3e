export * from './audit-recorder';
export * from './audit-retention';
