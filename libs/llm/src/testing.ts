// Test doubles that follow each server's public API; import from '@trove/llm/testing'.
export * from './fake-llm-server.testing';
export * from './fake-ollama-server.testing';
export * from './fake-openai-server.testing';
