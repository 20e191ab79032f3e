import { describe, expect, it } from 'vitest';
import { exportConfig } from './config-export';

describe('exportConfig', () => {
  const env = {
    TROVE_INDEX_PREFIX: 'trove',
    TROVE_SECRET_KEY: 'c2VjcmV0LWtleS0zMi1ieXRlcy1sb25nLWVub3VnaCE=',
    TROVE_ADMIN_API_KEY: 'admin-key-0123456789',
    TROVE_LLM_API_KEY: 'sk-abc',
    TROVE_DATABASE_URL: 'postgres://trove:hunter2@db:5432/trove',
    TROVE_API_URL: 'http://127.0.0.1:4000',
    TROVE_CHUNK_TARGET_TOKENS: '400',
    TROVE_WEB_USER_AGENT: "Trove's bot (+https://x)",
    HOME: '/root',
  };

  it('writes the TROVE_* settings without secrets, passwords or the CLI’s own settings', () => {
    const { text, omitted } = exportConfig(env, false);
    expect(text).toBe(
      [
        'TROVE_CHUNK_TARGET_TOKENS=400',
        'TROVE_DATABASE_URL=postgres://trove:REDACTED@db:5432/trove',
        'TROVE_INDEX_PREFIX=trove',
        `TROVE_WEB_USER_AGENT='Trove'\\''s bot (+https://x)'`,
        '',
      ].join('\n'),
    );
    expect(omitted).toEqual([
      'TROVE_ADMIN_API_KEY',
      'TROVE_DATABASE_URL',
      'TROVE_LLM_API_KEY',
      'TROVE_SECRET_KEY',
    ]);
    for (const secret of ['hunter2', env.TROVE_SECRET_KEY, env.TROVE_ADMIN_API_KEY, 'sk-abc'])
      expect(text).not.toContain(secret);
  });

  it('writes them all when asked to', () => {
    const { text, omitted } = exportConfig(env, true);
    expect(omitted).toEqual([]);
    expect(text).toContain(`TROVE_SECRET_KEY=${env.TROVE_SECRET_KEY}`);
    expect(text).toContain('hunter2');
  });
});
