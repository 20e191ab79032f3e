import type { Request } from 'express';

/**
 * An AbortSignal that fires when the HTTP client goes away before its response was sent, so
 * work nobody waits for (an embedding, an Elasticsearch query) stops. `res` 'close' fires on a
 * dropped connection as well as after a finished response; only the former aborts.
 */
export function clientAbortSignal(req: Request): AbortSignal {
  const controller = new AbortController();
  const res = req.res;
  if (!res) return controller.signal;
  if (req.socket?.destroyed && !res.writableEnded) {
    controller.abort();
    return controller.signal;
  }
  res.once('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}
