/**
 * What a source card says of a source: the outcome of its newest run first (a source whose last
 * sync failed is FAILING, not ACTIVE), with the reason's first line and what to do about it.
 */

/** The parts of a source the card's state comes from (the `sources` query's). */
export interface SourceStateInput {
  status: string;
  lastRun?: {
    status: string;
    stage?: string | null;
    /** The run's estimate of the time left, once it knows its pace. */
    etaSeconds?: number | null;
    error?: { code: string; message: string } | null;
    progress: { pagesPlanned?: number | null; pagesDone: number };
    health: { state: string; message?: string | null };
  } | null;
}

export interface SourceState {
  /** FAILING, STALLED, RUNNING, NEVER SYNCED, or the source's own status (ACTIVE, NEEDS_TOKEN, REMOVING). */
  label: string;
  color: string;
  /** The first line of why (a failure's message, a stall's cause). */
  reason?: string;
  /** What to do about it. */
  hint?: string;
  /** A running sync's pages done and planned (planned unknown while planning). */
  progress?: { done: number; planned?: number; stage?: string; etaSeconds?: number };
}

export function sourceState(source: SourceStateInput): SourceState {
  const run = source.lastRun;
  if (source.status === 'REMOVING') return { label: 'REMOVING', color: 'orange' };
  if (run?.status === 'RUNNING') {
    const progress = {
      done: run.progress.pagesDone,
      ...(typeof run.progress.pagesPlanned === 'number' ? { planned: run.progress.pagesPlanned } : {}),
      ...(run.stage ? { stage: run.stage } : {}),
      ...(typeof run.etaSeconds === 'number' ? { etaSeconds: run.etaSeconds } : {}),
    };
    if (run.health.state === 'STALLED') {
      return {
        label: 'STALLED',
        color: 'orange',
        reason: firstLine(run.health.message) ?? 'no progress for a while',
        hint: 'Check that the worker runs; the sync goes on by itself once the cause is gone.',
        progress,
      };
    }
    return { label: 'RUNNING', color: 'blue', progress };
  }
  if (source.status === 'NEEDS_TOKEN') {
    return {
      label: 'FAILING',
      color: 'red',
      reason: firstLine(run?.error?.message) ?? 'the source rejected its token',
      hint: 'Set a new token in Edit settings, then sync again.',
    };
  }
  // A scheduled run skipped because another was running is no failure of the source.
  if (run?.status === 'FAILED' && run.error?.code !== 'SKIPPED') {
    return {
      label: 'FAILING',
      color: 'red',
      reason: firstLine(run.error?.message) ?? 'the last sync failed',
      hint: fixHint(run.error?.code ?? '', run.error?.message ?? ''),
    };
  }
  if (!run) return { label: 'NEVER SYNCED', color: 'gray' };
  return { label: source.status, color: source.status === 'ACTIVE' ? 'green' : 'gray' };
}

/** What to do about a failed sync, from its error code and message. */
export function fixHint(code: string, message: string): string {
  if (
    code === 'SOURCE_UNAUTHORIZED' ||
    /\b(401|403)\b|token|authentication failed|unauthori[sz]ed/i.test(message)
  )
    return 'The token was refused: set a new token in Edit settings, then sync again.';
  if (/TROVE_FOLDER_ROOTS|folders (sources|this server) may read|folder sources are disabled/.test(message))
    return 'The path is outside the folders this server may read: choose a folder inside them in Edit settings, or have the server allow it (setting TROVE_FOLDER_ROOTS).';
  if (
    code === 'SOURCE_UNREACHABLE' ||
    /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|getaddrinfo|could not (be )?reach|network|timed? ?out/i.test(
      message,
    )
  )
    return 'The source could not be reached: check its URL in Edit settings and that this server can reach it.';
  if (code === 'NOT_STARTED')
    return 'The sync did not start: check that the workflow service (Temporal) and the worker run, then sync again.';
  return "See the last sync's details below; sync again once the cause is fixed.";
}

function firstLine(text: string | null | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .find((l) => l.trim())
    ?.trim();
  return line || undefined;
}
