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

/**
 * Deferred work waiting or running (all plugins) at which writes wait (see `room`), and down to which
 * it must come before they go on. Close together: waiting writes go on as the lanes make room, paced
 * by them; a wide gap (1,000) held them for 20 s and more under load, past clients' timeouts.
 */
export const BACKLOG_HIGH = 2_000;
export const BACKLOG_LOW = 1_900;
/** how long a write waits for room at most (`room`) */
export const BACKLOG_MAX_WAIT_MS = 2_000;

/** where a running lane holds a place (core/admission.ts `Admission`): `hold` is true when it counted, and is then paired with one `release` */
interface LaneGate {
  hold(): boolean;
  release(): void;
}

interface Lane {
  name: string;
  tasks: Array<() => Promise<void>>;
  running: boolean;
}

export class EventBus {
  private handlers = new Map<string, Array<{ plugin: string; fn: (p: any) => unknown; afterAnswer?: boolean; lane?: (p: any) => string }>>();
  private readonly high: number;
  private readonly low: number;
  private readonly maxWaitMs: number;
  /** `backlog`: the app's `deferredBacklog` settings (config.schema.json) */
  constructor(
    private log: Logger,
    backlog: { high?: number; low?: number; maxWaitMs?: number } = {},
  ) {
    this.high = backlog.high ?? BACKLOG_HIGH;
    this.low = Math.min(backlog.low ?? BACKLOG_LOW, this.high);
    this.maxWaitMs = backlog.maxWaitMs ?? BACKLOG_MAX_WAIT_MS;
    // started here, outside any request: see startWorker
    this.worker = this.startWorker();
  }

  /**
   * `afterAnswer`: this handler always runs as if the event were deferred (see `defer`): nothing it
   * does is awaited by the emitter. `lane`: which of the plugin's lanes its deferred runs take, from
   * the payload (say, by recipient): runs of one lane keep their order, different lanes run side by
   * side. Without it, all the plugin's deferred work is one lane.
   */
  on<K extends EventName>(name: K, fn: Handler<K>, plugin = 'core', opts: { afterAnswer?: boolean; lane?: (payload: CurioEvents[K]) => string } = {}): void {
    const list = this.handlers.get(name) ?? [];
    list.push({ plugin, fn, afterAnswer: opts.afterAnswer, lane: opts.lane });
    this.handlers.set(name, list);
  }

  /** Runs every handler; returns the handlers' non-undefined results (flattened if arrays). */
  async emit<K extends EventName>(name: K, payload: CurioEvents[K]): Promise<unknown[]> {
    const all = this.handlers.get(name) ?? [];
    const now = all.filter((h) => !h.afterAnswer);
    if (now.length < all.length) this.enqueue(name, payload, all.filter((h) => h.afterAnswer));
    const results: unknown[] = [];
    for (const h of now) {
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

  // Deferred work, one lane per plugin: each plugin's handlers and work run one at a time in the
  // order they were queued (a like's badge is recorded before its unlike undoes it), while the
  // lanes of different plugins run side by side (a like's notification does not wait for its badge).
  // Under a mixed load one lane for everything fell behind for good: each of its statements waited
  // for a pooled connection behind the requests', and 14,000 events piled up in 5 minutes.
  private lanes = new Map<string, Lane>();
  /** tasks queued or running, in every lane */
  private pending = 0;
  private wake: (() => void) | null = null;
  private idle: Array<() => void> = [];
  private waitingForRoom: Array<() => void> = [];
  private worker: Promise<void>;
  /** the app's admission (core/admission.ts): a running lane holds one of its places */
  private gate: LaneGate | null = null;

  /** Each lane, while it runs, holds a place at this door (it never waits for one): requests let in make room for the deferred work. */
  useGate(gate: LaneGate): void {
    this.gate = gate;
  }

  /**
   * Runs the handlers after the emitter's answer, in the background, in emission order for each
   * plugin (issue 18): for what the member does not need in the answer (notifications, badges of
   * others, counters of other plugins), so a request costs only its own statements and holds no
   * lock while they run. Being after the emitter's commit also means those handlers' writes (a
   * notification's foreign-key check on users) can no longer deadlock with the emitter's transaction
   * or lose its work to it. In-process: work queued when a process dies is lost (as a handler
   * failure is, logged).
   */
  defer<K extends EventName>(name: K, payload: CurioEvents[K]): void {
    this.enqueue(name, payload, this.handlers.get(name) ?? []);
  }

  private enqueue(name: string, payload: unknown, list: Array<{ plugin: string; fn: (p: any) => unknown; lane?: (p: any) => string }>): void {
    for (const h of list) {
      let lane = h.plugin;
      try {
        if (h.lane) lane = `${h.plugin}:${h.lane(payload)}`;
      } catch (err) {
        // never the emitter's failure: the plugin's own lane then
        this.log.error({ err, event: name, plugin: h.plugin }, 'event lane failed');
      }
      this.push(lane, async () => {
        try {
          await h.fn(payload);
        } catch (err) {
          this.log.error({ err, event: name, plugin: h.plugin }, 'event handler failed');
        }
      });
    }
  }

  /** Any work after the answer, in the plugin's lane with its deferred events (failures are logged like a handler's). */
  after(plugin: string, fn: () => unknown): void {
    this.push(plugin, async () => {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err, plugin }, 'work after the answer failed');
      }
    });
  }

  private push(laneName: string, task: () => Promise<void>): void {
    let lane = this.lanes.get(laneName);
    if (!lane) this.lanes.set(laneName, (lane = { name: laneName, tasks: [], running: false }));
    lane.tasks.push(task);
    this.pending++;
    this.wake?.();
  }

  /** Deferred work waiting or running, every plugin's. */
  get backlog(): number {
    return this.pending;
  }

  /** The same by plugin (a lane split by payload counts for its plugin): which plugin falls behind. */
  backlogByPlugin(): Map<string, number> {
    const out = new Map<string, number>();
    for (const lane of this.lanes.values()) {
      const i = lane.name.indexOf(':');
      const plugin = i < 0 ? lane.name : lane.name.slice(0, i);
      out.set(plugin, (out.get(plugin) ?? 0) + lane.tasks.length + (lane.running ? 1 : 0));
    }
    return out;
  }

  /** Whether writes should wait (`room`) before they add more. */
  get backlogged(): boolean {
    return this.pending >= this.high;
  }

  /**
   * Resolves at once while the backlog is under its high mark; over it, once the lanes have brought
   * it down to the low mark. The app makes every write request wait here before it starts (core/app.ts),
   * so that when the background work cannot keep up, the writes that make it slow down to its pace
   * instead of queueing it without end (memory, and notifications minutes late); `maxWaitMs` bounds
   * the wait. Never from a handler: a handler waiting for room would wait for its own lane.
   */
  room(maxWaitMs = this.maxWaitMs): Promise<void> {
    if (!this.backlogged) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      // past maxWaitMs the caller goes on anyway (and leaves the waiting list)
      const timer = Number.isFinite(maxWaitMs)
        ? setTimeout(() => {
            const i = this.waitingForRoom.indexOf(waiter);
            if (i >= 0) this.waitingForRoom.splice(i, 1);
            resolve();
          }, maxWaitMs)
        : undefined;
      this.waitingForRoom.push(waiter);
    });
  }

  /** Resolves when every deferred event queued so far has been handled (tests, shutdown). */
  settled(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  // The dispatcher's loop starts with the bus, outside any request, and starts each lane from there:
  // the deferred handlers run in no request's async context (their statements are not the request's).
  private startWorker(): Promise<void> {
    const loop = async () => {
      for (;;) {
        for (const lane of this.lanes.values()) {
          if (!lane.running && lane.tasks.length) {
            lane.running = true;
            void this.drain(lane);
          }
        }
        await new Promise<void>((r) => (this.wake = r));
        this.wake = null;
      }
    };
    return loop();
  }

  private async drain(lane: Lane): Promise<void> {
    const held = this.gate?.hold() ?? false;
    // tasks never throw: each one logs its handler's failure (enqueue, after)
    for (let task = lane.tasks.shift(); task; task = lane.tasks.shift()) {
      await task();
      this.pending--;
      if (this.waitingForRoom.length && this.pending <= this.low) for (const r of this.waitingForRoom.splice(0)) r();
    }
    if (held) this.gate!.release();
    lane.running = false;
    // an idle lane goes (lanes named from payloads would otherwise pile up); the next task makes it again
    this.lanes.delete(lane.name);
    if (!this.pending) for (const r of this.idle.splice(0)) r();
  }

  listenerCount(name: string): number {
    return this.handlers.get(name)?.length ?? 0;
  }
}
