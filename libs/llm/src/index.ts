export * from './llm-call';
export * from './llm-error';
export * from './llm-provider.factory';
export * from './llm-settings';
export * from './ollama.provider';
export * from './openai-compatible.provider';
