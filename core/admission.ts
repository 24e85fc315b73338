import type Koa from 'koa';

/**
 * Admission (issue 18): at most `limit` requests are inside the app's own work at once (session,
 * route, statements); the others wait their turn, in the order they came, before any of it.
 *
 * Without it every request that arrives starts at once, and under a burst (200 connections on a
 * pool of 10) each of them queues for a pooled connection once per statement: a two-statement
 * request waits in that queue twice, the work deferred after answers (notifications, badges) waits
 * behind all of them and falls behind until writes are held, and hundreds of half-done requests
 * keep their objects alive into the old generation. Queued here instead, a request waits once,
 * holds nothing but its socket, and those inside get the pool and the deferred lanes their share.
 *
 * Not gated: the paths the app names (the live-updates stream, which stays open for hours; health
 * checks, which a balancer must see answered while the app is busy; /metrics is answered before this
 * layer), and request bodies still arriving (an upload streams in its route: a slow client must not
 * hold a place while it sends). A request whose client has gone while it waited is not started.
 */
export class Admission {
  private inside = 0;
  private readonly queue: Array<(() => void) | undefined> = [];
  private head = 0;
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error('admission limit must be at least 1');
  }

  /** null: in at once; otherwise resolves when it is this request's turn. Each entry is paired with one `leave`. */
  enter(): Promise<void> | null {
    if (this.inside < this.limit && this.head === this.queue.length) {
      this.inside++;
      return null;
    }
    return new Promise<void>((resolve) => this.queue.push(resolve));
  }

  /** A request inside is done: its place goes to the first one waiting. */
  leave(): void {
    if (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      this.queue[this.head++] = undefined;
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
      } else if (this.head >= 1024) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.inside--;
  }

  /** requests waiting for a place */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** requests inside the app's work */
  get running(): number {
    return this.inside;
  }
}

/** a body that is still arriving (an upload its route streams); a JSON body was read by the parser before */
function bodyStillComing(req: Koa.Context['req']): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The middleware: after the body parser (a JSON body is read before its request takes a place), before
 * the session and the routes. `ungated`: paths that go straight on.
 */
export function admissionMiddleware(gate: Admission, ungated: ReadonlySet<string>): Koa.Middleware {
  return async function admit(ctx, next) {
    if (ungated.has(ctx.path) || bodyStillComing(ctx.req)) return next();
    const turn = gate.enter();
    if (turn) await turn;
    try {
      // the client gave up while it waited: nobody reads an answer, and nothing is started
      // (the socket, not the request: a request whose body was read is a finished stream)
      if (turn && ctx.req.socket.destroyed) {
        ctx.status = 499;
        ctx.body = { message: 'The client closed the connection before its request started' };
        return;
      }
      await next();
    } finally {
      gate.leave();
    }
  };
}
