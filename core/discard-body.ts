import type { IncomingMessage, ServerResponse } from 'node:http';

/** After an early answer, how long the rest of a body may still arrive (read and dropped) before the connection is cut. */
export const LINGER_MS = 10_000;

const DISCARDING = Symbol('curio.discardingBody');

/**
 * The rest of a request body nobody will read (answered early: too large, a Content-Encoding it does
 * not have, an upload refused) is read and dropped, so that the connection goes on.
 *
 * Node drops an unread body by itself only when nothing has started reading it. A parser that started
 * and stopped on an error (the JSON parser on a body that is not the deflate data it says, busboy on a
 * refused upload) leaves the request paused: the client, still sending, blocks, and a keep-alive client
 * waits there with its next request until the server's keep-alive timeout resets the connection.
 * Closing at once instead would reset the connection under the answer. A client still sending
 * LINGER_MS after the answer is cut off.
 */
export function discardUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || req.destroyed) return;
  const r = req as IncomingMessage & { [DISCARDING]?: true };
  if (r[DISCARDING]) return;
  r[DISCARDING] = true;
  req.resume();
  const linger = () => {
    if (req.complete || req.destroyed) return;
    const t = setTimeout(() => req.socket?.destroy(), LINGER_MS);
    t.unref();
    req.once('end', () => clearTimeout(t));
    req.once('close', () => clearTimeout(t));
  };
  if (res.writableFinished) linger();
  else res.once('finish', linger);
}
