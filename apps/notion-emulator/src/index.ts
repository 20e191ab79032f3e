export * from './default-workspace';
export * from './emulator';
export * from './workspace';
