import { RateLimitedError } from '../access/rate-limit';

/** Seconds a refused client is asked to wait: downloads end when their clients finish reading. */
export const DOWNLOAD_RETRY_AFTER_SECONDS = 5;

/** RATE_LIMITED (429 with `Retry-After`, set by the exception filter) for a busy original or client. */
export class DownloadsBusyError extends RateLimitedError {
  constructor(message: string) {
    super(DOWNLOAD_RETRY_AFTER_SECONDS);
    this.message = message;
    this.name = 'DownloadsBusyError';
  }
}

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/**
 * Downloads of originals in progress, bounded per document (whoever holds its link) and per client
 * address, in this process. A download holds one slot of each from its start until its response
 * closes, finished or aborted.
 */
export class DownloadSlots {
  private readonly perDocument = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: { perLink: number; perAddress: number }) {}

  /** Takes a slot of the document and of the address, or throws DownloadsBusyError taking none. */
  acquire(documentId: string, address: string | undefined): ReleaseSlot {
    const client = address ?? 'unknown';
    if ((this.perDocument.get(documentId) ?? 0) >= this.limits.perLink) {
      throw new DownloadsBusyError(
        `too many downloads of this original at once (at most ${this.limits.perLink}); retry after ${DOWNLOAD_RETRY_AFTER_SECONDS} s`,
      );
    }
    if ((this.perAddress.get(client) ?? 0) >= this.limits.perAddress) {
      throw new DownloadsBusyError(
        `too many downloads from this address at once (at most ${this.limits.perAddress}); retry after ${DOWNLOAD_RETRY_AFTER_SECONDS} s`,
      );
    }
    increment(this.perDocument, documentId, 1);
    increment(this.perAddress, client, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      increment(this.perDocument, documentId, -1);
      increment(this.perAddress, client, -1);
    };
  }

  /** Downloads in progress of a document and from an address. */
  inUse(documentId: string, address: string | undefined): { document: number; address: number } {
    return {
      document: this.perDocument.get(documentId) ?? 0,
      address: this.perAddress.get(address ?? 'unknown') ?? 0,
    };
  }
}

/** Adds to a count; a count back at zero is removed, so the maps only hold downloads in progress. */
function increment(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
