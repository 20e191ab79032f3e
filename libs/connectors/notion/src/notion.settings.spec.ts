import { describe, expect, it } from 'vitest';
import { readNotionSettings } from './notion.settings';

describe('the Notion connector settings', () => {
  it("have defaults (the cache's are the connector's), read TROVE_NOTION_*, and name every variable at fault", () => {
    expect(readNotionSettings({ TROVE_NOTION_API_URL: '' })).toEqual({ requestsPerSecond: 3 });
    expect(
      readNotionSettings({
        TROVE_NOTION_API_URL: 'http://127.0.0.1:8089',
        TROVE_NOTION_REQUESTS_PER_SECOND: '50',
        TROVE_NOTION_CACHE_TTL_SECONDS: '0',
      }),
    ).toEqual({ apiBaseUrl: 'http://127.0.0.1:8089', requestsPerSecond: 50, cacheTtlSeconds: 0 });
    expect(() =>
      readNotionSettings({ TROVE_NOTION_API_URL: 'not a url', TROVE_NOTION_CACHE_MAX_OBJECTS: '-1' }),
    ).toThrow(
      /invalid Notion connector settings: TROVE_NOTION_API_URL: .*; TROVE_NOTION_CACHE_MAX_OBJECTS: /,
    );
  });
});
