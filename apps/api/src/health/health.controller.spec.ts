import { afterEach, describe, expect, it, vi } from 'vitest';
import { HealthController, READINESS_CACHE_MS } from './health.controller';

function controller() {
  const calls = { postgresql: 0, elasticsearch: 0, temporal: 0, embedder: 0 };
  const slow = (name: keyof typeof calls) => async () => {
    calls[name]++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const health = new HealthController(
    { cluster: { health: slow('elasticsearch') } },
    { ping: slow('temporal') },
    { ping: slow('embedder') },
    { ping: slow('postgresql') },
  );
  const response = { status: vi.fn() };
  return { calls, readyz: () => health.readyz(response) };
}

describe('HealthController.readyz', () => {
  afterEach(() => vi.useRealTimers());

  it('shares one in-flight check between concurrent requests', async () => {
    const { calls, readyz } = controller();
    const answers = await Promise.all(Array.from({ length: 50 }, readyz));
    expect(answers.every((a) => a.status === 'ok')).toBe(true);
    expect(calls).toEqual({ postgresql: 1, elasticsearch: 1, temporal: 1, embedder: 1 });
  });

  it('reuses the result for a moment, then checks again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { calls, readyz } = controller();
    await readyz();
    vi.setSystemTime(Date.now() + READINESS_CACHE_MS - 100);
    await readyz();
    expect(calls.elasticsearch).toBe(1);
    vi.setSystemTime(Date.now() + 200);
    await readyz();
    expect(calls).toEqual({ postgresql: 2, elasticsearch: 2, temporal: 2, embedder: 2 });
  });

  it('says which dependency is down, not why: backend errors name hosts and ports', async () => {
    const failing = async () => {
      throw new Error('connect ECONNREFUSED 10.1.2.3:9200');
    };
    const health = new HealthController(
      { cluster: { health: failing } },
      { ping: async () => undefined },
      { ping: async () => undefined },
      {
        ping: async () => {
          throw new Error('connect ECONNREFUSED 10.1.2.3:5432');
        },
      },
    );
    const response = { status: vi.fn() };
    const answer = await health.readyz(response);
    expect(response.status).toHaveBeenCalledWith(503);
    expect(answer.checks.elasticsearch).toMatchObject({ ok: false, error: 'unavailable' });
    expect(answer.checks.postgresql).toMatchObject({ ok: false, error: 'unavailable' });
    expect(answer.checks.temporal.ok).toBe(true);
    expect(JSON.stringify(answer)).not.toMatch(/10\.1\.2\.3|9200|5432|ECONNREFUSED/);
  });
});
