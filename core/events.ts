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
  private handlers = new Map<string, Array<{ plugin: string; fn: (p: any) => unknown }>>();
  constructor(private log: Logger) {}

  on<K extends EventName>(name: K, fn: Handler<K>, plugin = 'core'): void {
    const list = this.handlers.get(name) ?? [];
    list.push({ plugin, fn });
    this.handlers.set(name, list);
  }

  /** Runs every handler; returns the handlers' non-undefined results (flattened if arrays). */
  async emit<K extends EventName>(name: K, payload: CurioEvents[K]): Promise<unknown[]> {
    const list = this.handlers.get(name) ?? [];
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

  listenerCount(name: string): number {
    return this.handlers.get(name)?.length ?? 0;
  }
}
