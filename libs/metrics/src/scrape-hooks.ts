/**
 * Values read when Prometheus scrapes (catalog counts, pool and slot usage, task-queue backlog):
 * each gauge's `collect` runs its hook, which the process registers once it has the client.
 */
export type ScrapeHook = () => Promise<void> | void;

const hooks = new Map<string, ScrapeHook>();

export function setScrapeHook(name: string, hook: ScrapeHook | undefined): void {
  if (hook) hooks.set(name, hook);
  else hooks.delete(name);
}

/** Runs a hook; a failing read leaves the gauges at their last values rather than fail the scrape. */
export async function runScrapeHook(name: string): Promise<void> {
  try {
    await hooks.get(name)?.();
  } catch {
    // The next scrape tries again; a dependency being down shows in /readyz and in its own metrics.
  }
}
