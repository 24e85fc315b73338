import type http from 'node:http';

/**
 * Graceful shutdown of one process (rolling restarts behind a load balancer). On drain:
 * /api/health answers 503 `{ status: "draining" }` and answers carry `Connection: close`; after
 * `delayMs` the listener closes (new connections are refused, so the balancer sends them
 * elsewhere) while requests in flight, uploads included, finish for up to `timeoutMs`; then the
 * remaining connections are cut. Behind deploy/'s nginx (X-Balancer-Retries: 503) GET and HEAD
 * get a 503 at once while draining (core/app.ts), which nginx retries elsewhere and which marks
 * the process down, so that nothing waits in the accept queue when the listener closes; nginx's
 * upstream keepalive_timeout is shorter than delayMs, so no idle socket of nginx is closed under it.
 *
 * Long-lived answers never finish by themselves: modules holding them register `onDrain` hooks
 * (e.g. close SSE streams with a retry hint); any text/event-stream answer still open is ended
 * after the hooks ran, with a `retry:` line so that the browser reconnects (to another process).
 */
export class Drain {
  draining = false;
  private hooks: Array<() => void | Promise<void>> = [];
  private open = new Set<http.ServerResponse>();
  private done: Promise<void> | null = null;

  /** Called once when draining starts; errors are logged by the caller's logger, not thrown. */
  onDrain(fn: () => void | Promise<void>): void {
    this.hooks.push(fn);
  }

  /** Follows a server's answers (Connection: close while draining, open event streams). */
  track(server: http.Server): void {
    server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      this.open.add(res);
      res.once('close', () => this.open.delete(res));
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
    });
  }

  /** How many answers are in progress. */
  get inFlight(): number {
    return this.open.size;
  }

  /** Starts draining (idempotent) and resolves once the server is closed or the timeout cut it. */
  run(server: http.Server | null, opts: { delayMs: number; timeoutMs: number; onError?: (err: unknown) => void }): Promise<void> {
    this.done ??= this.drain(server, opts);
    return this.done;
  }

  private async drain(server: http.Server | null, opts: { delayMs: number; timeoutMs: number; onError?: (err: unknown) => void }): Promise<void> {
    this.draining = true;
    for (const fn of this.hooks) {
      try {
        await fn();
      } catch (err) {
        opts.onError?.(err);
      }
    }
    await this.closeEventStreams();
    if (!server) return;
    if (opts.delayMs > 0) await new Promise((r) => setTimeout(r, opts.delayMs));
    // streams opened during the delay too
    await this.closeEventStreams();
    await new Promise<void>((resolve) => {
      // Stop accepting; in-flight requests finish; kept-alive sockets close as soon as they go idle.
      const idle = setInterval(() => server.closeIdleConnections?.(), 100);
      const force = setTimeout(() => server.closeAllConnections?.(), opts.timeoutMs);
      force.unref();
      server.close(() => {
        clearInterval(idle);
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections?.();
    });
  }

  /** Resolves once the ends are written out (closing idle sockets before would drop them). */
  private async closeEventStreams(): Promise<void> {
    const ending: Promise<void>[] = [];
    for (const res of this.open) {
      // headers given to writeHead() are not in getHeader(): read the sent header block then
      const sent = res.headersSent ? String((res as unknown as { _header?: string })._header ?? '') : '';
      if (!/^text\/event-stream/i.test(String(res.getHeader('content-type') ?? '')) && !/\r\ncontent-type:\s*text\/event-stream/i.test(sent)) continue;
      if (res.writableEnded) continue;
      res.on('error', () => undefined); // a body still piped in after the end
      try {
        // reconnect soon: the balancer sends the new connection to a process that is not draining
        res.write('retry: 1000\n\n');
        ending.push(new Promise<void>((r) => res.end(() => r())));
      } catch {
        res.destroy();
      }
    }
    await Promise.all(ending);
  }
}
