/** Small display helpers shared by the pages. */

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatScore(score: number | null | undefined): string {
  if (score === null || score === undefined) return '–';
  return Math.abs(score) >= 100 ? score.toFixed(1) : score.toPrecision(4);
}

export function pageRange(page: number | null | undefined, pageEnd: number | null | undefined): string {
  if (!page) return '–';
  return pageEnd && pageEnd !== page ? `${page}–${pageEnd}` : String(page);
}

export const STATUS_COLORS: Record<string, string> = {
  READY: 'green',
  COMPLETED: 'green',
  ACTIVE: 'green',
  PENDING: 'gray',
  INDEXING: 'blue',
  RUNNING: 'blue',
  FAILED: 'red',
  CANCELLED: 'yellow',
  DELETING: 'orange',
  REMOVING: 'orange',
  NEEDS_TOKEN: 'orange',
  STALLED: 'orange',
};

/** A duration in seconds, e.g. `45 s`, `12 min`, `3 h 20 min`. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const hours = Math.floor(seconds / 3600);
  return `${hours} h ${Math.round((seconds - hours * 3600) / 60)} min`;
}

const PLURALS = new Intl.PluralRules('en');

/** A count with its noun in the right number: `1 document`, `0 documents`, `2 chunks`. */
export function plural(count: number, one: string, other = `${one}s`): string {
  return `${count.toLocaleString('en')} ${PLURALS.select(count) === 'one' ? one : other}`;
}
