import { describe, expect, it } from 'vitest';
import { BENCHMARK_COMMANDS } from '@trove/tools-support';
import { DEFAULTS, parseScaleOptions, partHeading, reducedSizes } from './bench-scale';

describe('npm run bench:scale options', () => {
  it('runs every part at the sizes of the targets without options', () => {
    expect(parseScaleOptions([])).toEqual(DEFAULTS);
    expect(DEFAULTS).toMatchObject({ small: 1_500, queued: 5_000, planFiles: 1_000, rssDocs: 50_000 });
  });

  it('has the sizes the BENCHMARKS.md staleness check knows as defaults (tools/support/benchmark-commands.ts)', () => {
    const { sizes } = BENCHMARK_COMMANDS.find((c) => c.command === 'npm run bench:scale')!;
    const given = Object.entries(sizes).flatMap(([option, value]) => [option, value!]);
    expect(parseScaleOptions(given)).toEqual(DEFAULTS);
  });

  it('takes parts and loads in their fixed order, and refuses unknown ones', () => {
    const o = parseScaleOptions(['--parts', 'rss,small', '--loads', 'uploads']);
    expect(o.parts).toEqual(['small', 'rss']);
    expect(o.loads).toEqual(['uploads']);
    expect(() => parseScaleOptions(['--parts', 'smal'])).toThrow(
      '--parts: unknown smal; choose from small, stub, control, rss, telemetry',
    );
    expect(() => parseScaleOptions(['--small', '0'])).toThrow(/--small must be an integer/);
    expect(() => parseScaleOptions(['--stub-workers', '2,1'])).toThrow(/increasing/);
    // The telemetry rounds alternate on, off, off, on: an odd count would favour one condition.
    expect(parseScaleOptions(['--telemetry-rounds', '6']).telemetryRounds).toBe(6);
    expect(() => parseScaleOptions(['--telemetry-rounds', '3'])).toThrow(/must be even/);
  });

  it('names changed sizes in the heading, so a reduced run never replaces the full-size section', () => {
    const full = parseScaleOptions([]);
    expect(partHeading('Scale: x', 'small', full)).toBe('## Scale: x');
    const reduced = parseScaleOptions(['--small', '300', '--queued', '1000']);
    expect(reducedSizes('small', reduced)).toEqual(['--small 300']);
    expect(partHeading('Scale: x', 'control', reduced)).toBe('## Scale: x (sizes changed: --queued 1000)');
    // A size of another part does not rename this part's section.
    expect(partHeading('Scale: x', 'rss', reduced)).toBe('## Scale: x');
    expect(partHeading('Scale: x', 'telemetry', parseScaleOptions(['--telemetry-docs', '50']))).toBe(
      '## Scale: x (sizes changed: --telemetry-docs 50)',
    );
    expect(partHeading('Scale: x', 'stub', parseScaleOptions(['--stub-workers', '1']))).toBe(
      '## Scale: x (sizes changed: --stub-workers 1)',
    );
  });
});
