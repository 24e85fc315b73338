import type { Logger } from 'pino';

/**
 * In-process, typed event bus. Event names are `<plugin>.<thing>.<pastTense>`.
 * Plugins augment `CurioEvents` (declaration merging) with the payloads they emit:
 *
 *   declare module '../../../core/events.ts' {
 *     interface CurioEvents { 'museums.museum.checkedIn': { userId: number; museumId: number } }
 *   }
 *
 * Handlers run after the emitter's work; a failing handler is logged and never breaks the emitter.
 * `emit` resolves when every handler has finished, so an answer can include what handlers did
 * (e.g. badges earned by a check-in) through `collect`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CurioEvents {}

export type EventName = keyof CurioEvents & string;
type Handler<K extends EventName> = (payload: CurioEvents[K]) => unknown | Promise<unknown>;

export class EventBus {
  private handlers = new Map<string, Array<{ plugin: string; fn: (p: any) => unknown; afterAnswer?: boolean }>>();
  constructor(private log: Logger) {
    // started here, outside any request: see startWorker
    this.worker = this.startWorker();
  }

  /** `afterAnswer`: this handler always runs as if the event were deferred (see `defer`): nothing it does is awaited by the emitter. */
  on<K extends EventName>(name: K, fn: Handler<K>, plugin = 'core', opts: { afterAnswer?: boolean } = {}): void {
    const list = this.handlers.get(name) ?? [];
    list.push({ plugin, fn, afterAnswer: opts.afterAnswer });
    this.handlers.set(name, list);
  }

  /** Runs every handler; returns the handlers' non-undefined results (flattened if arrays). */
  async emit<K extends EventName>(name: K, payload: CurioEvents[K]): Promise<unknown[]> {
    return this.run(name, payload, 'now');
  }

  private async run(name: string, payload: unknown, which: 'now' | 'later' | 'all'): Promise<unknown[]> {
    const all = this.handlers.get(name) ?? [];
    const list = which === 'all' ? all : all.filter((h) => Boolean(h.afterAnswer) === (which === 'later'));
    if (which === 'now' && list.length < all.length) this.enqueue(name, payload, 'later');
    const results: unknown[] = [];
    for (const h of list) {
      try {
        const r = await h.fn(payload);
        if (Array.isArray(r)) results.push(...r);
        else if (r !== undefined) results.push(r);
      } catch (err) {
        this.log.error({ err, event: name, plugin: h.plugin }, 'event handler failed');
      }
    }
    return results;
  }

  private queue: Array<{ name: string; payload: unknown; which: 'later' | 'all' | 'work' }> = [];
  private wake: (() => void) | null = null;
  private idle: Array<() => void> = [];
  private running = false;
  private worker: Promise<void>;

  /**
   * Runs the handlers after the emitter's answer, in the background, in emission order (issue 18):
   * for what the member does not need in the answer (notifications, badges of others, counters of
   * other plugins), so a request costs only its own statements and holds no lock while they run.
   * Being after the emitter's commit also means those handlers' writes (a notification's foreign-key
   * check on users) can no longer deadlock with the emitter's transaction or lose its work to it.
   * In-process: work queued when a process dies is lost (as a handler failure is, logged).
   */
  defer<K extends EventName>(name: K, payload: CurioEvents[K]): void {
    this.enqueue(name, payload, 'all');
  }

  private enqueue(name: string, payload: unknown, which: 'later' | 'all'): void {
    if (!this.listenerCount(name)) return;
    this.queue.push({ name, payload, which });
    this.wake?.();
  }

  /** Any work after the answer, in the same queue as deferred events (failures are logged like a handler's). */
  after(plugin: string, fn: () => unknown): void {
    this.queue.push({ name: plugin, payload: fn, which: 'work' });
    this.wake?.();
  }

  /** Resolves when every deferred event queued so far has been handled (tests, shutdown). */
  settled(): Promise<void> {
    if (!this.queue.length && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  // The worker's loop starts with the bus, outside any request, and its awaits are registered there:
  // the deferred handlers run in no request's async context (their statements are not the request's).
  private startWorker(): Promise<void> {
    const loop = async () => {
      for (;;) {
        const next = this.queue.shift();
        if (!next) {
          this.running = false;
          for (const r of this.idle.splice(0)) r();
          await new Promise<void>((r) => (this.wake = r));
          this.wake = null;
          continue;
        }
        this.running = true;
        if (next.which === 'work') {
          try {
            await (next.payload as () => unknown)();
          } catch (err) {
            this.log.error({ err, plugin: next.name }, 'work after the answer failed');
          }
        } else await this.run(next.name, next.payload, next.which);
      }
    };
    return loop();
  }

  listenerCount(name: string): number {
    return this.handlers.get(name)?.length ?? 0;
  }
}
