import { TroveError, TroveErrorCode } from '@trove/domain';

/** A page of a list served by cursor: keyset pagination, stable while rows are added. */
export interface Page<T> {
  items: T[];
  totalCount: number;
  /** Cursor of the last item, to pass as `after` for the next page. */
  endCursor?: string;
  hasNextPage: boolean;
}

export interface PageRequest {
  /** Items per page (1–500). */
  first?: number;
  after?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/**
 * Opaque cursor for a row ordered by (time, id). The time is a Date (milliseconds) or, for rows
 * written with PostgreSQL's microseconds, the ISO text of the full time (see `cursorTime`), so rows
 * of one millisecond do not fall between two pages.
 */
export function encodeCursor(at: Date | string, id: string): string {
  return Buffer.from(JSON.stringify([typeof at === 'string' ? at : at.toISOString(), id])).toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { at, id };
  } catch {
    // falls through to the error below
  }
  throw new TroveError(TroveErrorCode.BadRequest, 'the cursor is not one this API handed out', {
    permanent: true,
  });
}

export function pageSize(first: number | undefined): number {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new TroveError(TroveErrorCode.BadRequest, `first must be between 1 and ${MAX_PAGE_SIZE}`, {
      permanent: true,
    });
  }
  return size;
}

/**
 * A page from the `size + 1` rows a keyset query returned (the extra row only says there is a
 * next page) and the total count.
 */
export function toPage<Row extends { id: string }, T>(
  rows: Row[],
  count: { count: string | number },
  size: number,
  cursorAt: (row: Row) => Date | string,
  map: (row: Row) => T,
): Page<T> {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(map),
    totalCount: Number(count.count),
    endCursor: last && encodeCursor(cursorAt(last), last.id),
    hasNextPage: rows.length > size,
  };
}
