import { describe, expect, it } from 'vitest';
import { readWebSettings } from './web.settings';

describe('the web connector settings', () => {
  it('refuse private networks by default, read TROVE_WEB_* (blank is unset), and name every variable at fault', () => {
    expect(readWebSettings({ TROVE_WEB_USER_AGENT: '' })).toEqual({
      userAgent: 'TroveBot/0.1 (+https://github.com/trove)',
      requestsPerSecond: 2,
      allowPrivateNetworks: false,
      maxPageBytes: 10 * 1024 * 1024,
      maxSitemapBytes: 50 * 1024 * 1024,
      maxSitemaps: 50,
      timeoutMs: 30_000,
      defaultMaxPages: 1000,
    });
    expect(
      readWebSettings({
        TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
        TROVE_WEB_REQUESTS_PER_SECOND: '0.5',
        TROVE_WEB_USER_AGENT: 'Bot/1',
      }),
    ).toMatchObject({ allowPrivateNetworks: true, requestsPerSecond: 0.5, userAgent: 'Bot/1' });
    expect(() =>
      readWebSettings({ TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'yes', TROVE_WEB_MAX_SITEMAPS: '0' }),
    ).toThrow(
      /invalid web connector settings: TROVE_WEB_ALLOW_PRIVATE_NETWORKS: .*; TROVE_WEB_MAX_SITEMAPS: /,
    );
  });
});
