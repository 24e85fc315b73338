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
 *
 * The work deferred after answers (core/events.ts: notifications, badges, live updates) takes places
 * too, up to half of them, but never waits for one (`hold`): a running lane is a request fewer let in.
 * Without that, 40 requests and the lanes shared the app's one thread and the pool turn by turn, the
 * lanes got a small part of it, and at full size their work fell behind by 200 tasks a minute until
 * writes were held at the backlog's bound.
 */
export class Admission {
  private inside = 0;
  /** places held by background work (inside counts them too) */
  private held = 0;
  private readonly queue: Array<(() => void) | undefined> = [];
  private head = 0;
  /** how many places background work may hold at most: half of them (at least one) */
  readonly share: number;
  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error('admission limit must be at least 1');
    this.share = Math.max(1, Math.floor(limit / 2));
  }

  /** null: in at once; otherwise resolves when it is this request's turn. Each entry is paired with one `leave`. */
  enter(): Promise<void> | null {
    if (this.inside < this.limit && this.head === this.queue.length) {
      this.inside++;
      return null;
    }
    return new Promise<void>((resolve) => this.queue.push(resolve));
  }

  /**
   * Background work starts: it takes a place at once, never waiting (it must not wait behind the
   * requests that wait for it to make room: core/events.ts `room`), and true when it counts, within
   * its share. The place then goes back with `release`; a request waiting gets it only once the
   * number inside is under the limit again.
   */
  hold(): boolean {
    if (this.held >= this.share) return false;
    this.held++;
    this.inside++;
    return true;
  }

  /** background work that `hold` counted is done */
  release(): void {
    this.held--;
    this.leave();
  }

  /** A request inside is done: its place goes to the first one waiting (unless background work had taken more than the limit). */
  leave(): void {
    if (this.inside <= this.limit && this.head < this.queue.length) {
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
    return this.inside - this.held;
  }

  /** places held by background work */
  get background(): number {
    return this.held;
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
