export * from './embedding-error';
export * from './embedding-provider.factory';
export * from './model-profiles';
export * from './ollama.provider';
export * from './openai-compatible.provider';
export * from './embedding-rejections';
export * from './query-lane.provider';
export * from './scheduled.provider';
