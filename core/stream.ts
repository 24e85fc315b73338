/**
 * Live updates: `GET /api/stream`, server-sent events for the signed-in member (DESIGN.md "Live
 * updates"). Plugins publish through `ctx.live` (LiveApi); the web client treats every event as a
 * hint to revalidate its SWR data.
 *
 * - Every event is written to `core_stream_events` (id = the SSE event id), kept for a few minutes,
 *   so a reconnecting tab that sends `Last-Event-ID` gets what it missed, whichever process it
 *   reconnects to.
 * - Fan-out across processes: on PostgreSQL each publish sends `pg_notify('curio_stream', …)` and
 *   every process LISTENs on one dedicated connection (outside the pool), delivering to the
 *   streams it holds (the publisher too, through its own notification). Events too large for a
 *   notification (8,000 bytes) travel as their id and are read back from the table. On the
 *   embedded database (one process) delivery is in process.
 * - Limits: at most `maxPerMember` streams per member across all processes (the oldest is closed),
 *   at most `maxPerProcess` streams in a process (503 beyond), and a stream whose socket holds more
 *   than `maxBufferedBytes` unsent is closed (the tab reconnects and resumes), never buffered without
 *   bound. The per-member limit counts lease rows in `core_stream_leases` (one per open stream, in
 *   whichever process): a new stream takes its row under a per-member transaction lock (PostgreSQL
 *   advisory lock), and the rows beyond the newest `maxPerMember` are deleted in the same
 *   transaction; their streams are closed by the process that holds them (at once when it is this
 *   one, else told through the notification channel). Each process refreshes its rows' expiry with
 *   the heartbeat; the rows of a process that died expire (`leaseSeconds`), are the oldest so they
 *   are the first given up, and are purged. A stream whose row has gone (evicted while this process
 *   missed the notification) is closed at the next refresh.
 * - A comment line every `heartbeatMs` keeps proxies from closing an idle stream.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Knex } from 'knex';
import type Koa from 'koa';
import pg from 'pg';
import client from 'prom-client';
import type { Logger } from 'pino';
import { HttpError } from './errors.ts';

export const STREAM_CHANNEL = 'curio_stream';

export interface LiveEventInput {
  userId: number;
  /** e.g. 'message.created', 'notification.created' */
  type: string;
  data?: unknown;
}

export interface LiveApi {
  /** Stores and delivers events (each to one member's open streams). Never throws: live updates are a hint. */
  publish(events: LiveEventInput[]): Promise<void>;
  /** The same event to several members. */
  publishTo(userIds: number[], type: string, data?: unknown): Promise<void>;
  /**
   * The same event to those of an audience who have a stream open now, in whichever process: one
   * statement reads the audience (member ids, or SQL selecting one column of them) against the open
   * streams' leases and stores the events of those members only. For hints worth something only
   * live, to audiences that may be large (a new insight to all who follow its author and museum):
   * most of them have no tab open, and storing an event for each cost more than the insight itself.
   * A member whose stream was down gets nothing to resume; the page asks again when its stream
   * opens (web/src/lib/live.tsx sends `stream.open` to the page).
   */
  publishToOpen(audience: number[] | Knex.QueryBuilder, type: string, data?: unknown): Promise<void>;
  /**
   * A boolean SQL expression: the member in `userIdColumn` has a stream open now, in whichever
   * process. A plugin reads it in a statement of its own (e.g. returned by an insert) to publish, or
   * prepare what it would publish, only for members who would see it live.
   */
  hasOpenStream(userIdColumn: string): Knex.Raw;
  /**
   * Process signals, not for members: `fn(data)` of `onSignal(topic)` runs in every process of the
   * app, this one at once (before the promise resolves), the others when the notification arrives.
   * Sent after the change it announces has committed. A database trigger may send one itself:
   * `pg_notify('curio_stream', json {"signal": topic, "data": …})` (STREAM_CHANNEL; at most 7,900 bytes).
   * Never throws.
   */
  signal(topic: string, data: unknown): Promise<void>;
  /** `fn(null)`: notifications may have been missed (the LISTEN connection was lost): forget whatever they would have told. */
  onSignal(topic: string, fn: (data: unknown) => void): void;
  /**
   * Whether every process's signals reach this one now: the LISTEN connection is up (PostgreSQL),
   * or the embedded database's listener is (PGlite). Whoever caches on their strength caches only then.
   */
  signalsLive(): boolean;
}

export interface StreamConfig {
  maxPerMember: number;
  maxPerProcess: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  retentionSeconds: number;
  /** how long a stream's lease row outlives its last refresh (a process that died frees its rows then) */
  leaseSeconds: number;
}

export const STREAM_DEFAULTS: StreamConfig = {
  maxPerMember: 10,
  maxPerProcess: 10000,
  heartbeatMs: 25000,
  maxBufferedBytes: 256 * 1024,
  retentionSeconds: 300,
  leaseSeconds: 90,
};

/** First key of the per-member advisory lock (pg_advisory_xact_lock(int, int)) taken when a stream opens. */
const LEASE_LOCK_NS = 0x53545245;

interface LiveEvent {
  id: number;
  userId: number;
  type: string;
  data: unknown;
}

interface Conn {
  seq: number;
  userId: number;
  res: http.ServerResponse;
  /** events that arrived while the replay of Last-Event-ID ran; null once live */
  pending: LiveEvent[] | null;
  /** ids the replay wrote: their notifications may still arrive afterwards (skipped, for a while) */
  replayed: Set<number> | null;
  closed: boolean;
  /** its row in core_stream_leases (null until taken) */
  leaseId: number | null;
  /** performance.now() when the lease was taken */
  leasedAt: number;
}

const NOTIFY_LIMIT = 7900;
const rowsOf = (r: any): any[] => (Array.isArray(r) ? r : (r?.rows ?? []));

export function createStreamHub(opts: {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  databaseUrl: string | null;
  /** the embedded database (PGlite), for its LISTEN */
  pglite?: { listen(channel: string, fn: (payload: string) => void): Promise<unknown> };
  log: Logger;
  config: StreamConfig;
  registry: client.Registry;
}) {
  const { knex, log, config } = opts;
  const byUser = new Map<number, Conn[]>();
  let open = 0;
  let seq = 0;
  let listener: pg.Client | null = null;
  /** PGlite: its own LISTEN is up (signals from triggers and other code in this process) */
  let embeddedListening = false;
  let embeddedUnlisten: (() => Promise<void>) | null = null;
  const signalHandlers = new Map<string, Array<(data: unknown) => void>>();
  let stopped = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  const processId = randomUUID();
  const byLease = new Map<number, Conn>();
  const leaseRefreshMs = Math.max(50, Math.min(config.heartbeatMs, (config.leaseSeconds * 1000) / 3));

  const openGauge = new client.Gauge({ name: 'curio_stream_open', help: 'Open live-update streams (GET /api/stream) in this process', registers: [opts.registry], collect() { this.set(open); } });
  void openGauge;
  const sent = new client.Counter({ name: 'curio_stream_events_sent_total', help: 'Live-update events written to streams', registers: [opts.registry] });
  const dropped = new client.Counter({ name: 'curio_stream_dropped_total', help: 'Streams closed by the server', labelNames: ['reason'] as const, registers: [opts.registry] });

  function frame(ev: LiveEvent): string {
    return `id: ${ev.id}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev.data ?? {})}\n\n`;
  }

  function close(c: Conn, reason: string | null): void {
    if (c.closed) return;
    c.closed = true;
    open--;
    const list = byUser.get(c.userId);
    if (list) {
      const i = list.indexOf(c);
      if (i >= 0) list.splice(i, 1);
      if (!list.length) byUser.delete(c.userId);
    }
    if (reason) dropped.inc({ reason });
    if (!c.res.destroyed) c.res.end();
    if (c.leaseId !== null) {
      const id = c.leaseId;
      byLease.delete(id);
      if (reason !== 'member-limit') knex('core_stream_leases').where({ id }).del().catch((err) => log.warn({ err }, 'live updates: lease release failed'));
    }
  }

  /**
   * Takes a lease row for a new stream of `userId` and gives up the member's oldest beyond
   * maxPerMember, in one transaction under the member's lock; answers the new id and the evicted rows.
   */
  async function takeLease(userId: number): Promise<{ id: number; evicted: Array<{ id: number; processId: string }> }> {
    return knex.transaction(async (trx) => {
      if (opts.kind === 'postgres') await trx.raw('select pg_advisory_xact_lock(?, ?)', [LEASE_LOCK_NS, userId]);
      const [row] = await trx('core_stream_leases')
        .insert({ user_id: userId, process_id: processId, expires_at: trx.raw(`now() + make_interval(secs => ?)`, [config.leaseSeconds]) })
        .returning(['id']);
      const id = Number(row.id ?? row);
      // expired rows (a process that died) go first, then the oldest beyond the limit
      const expired = await trx('core_stream_leases').where({ user_id: userId }).where('expires_at', '<', trx.fn.now()).del().returning(['id', 'process_id']);
      const over = await trx('core_stream_leases').where({ user_id: userId }).orderBy('id', 'desc').offset(config.maxPerMember).select('id', 'process_id');
      if (over.length) await trx('core_stream_leases').whereIn('id', over.map((r: any) => r.id)).del();
      const evicted = [...rowsOf(expired), ...over].map((r: any) => ({ id: Number(r.id), processId: String(r.process_id) }));
      return { id, evicted };
    });
  }

  /** Closes the streams of evicted leases: here at once, elsewhere through the notification channel. */
  async function evict(list: Array<{ id: number; processId: string }>): Promise<void> {
    const remote: number[] = [];
    for (const e of list) {
      const c = byLease.get(e.id);
      if (c) close(c, 'member-limit');
      else if (e.processId !== processId) remote.push(e.id);
    }
    if (remote.length && opts.kind === 'postgres') {
      await knex.raw('select pg_notify(?, ?)', [STREAM_CHANNEL, JSON.stringify({ close: remote })]).catch((err) => log.warn({ err }, 'live updates: eviction notice failed'));
    }
  }

  /** Keeps this process's leases alive; closes its streams whose lease was given up meanwhile. */
  async function refreshLeases(): Promise<void> {
    if (!byLease.size) return;
    const started = performance.now();
    const rows = await knex('core_stream_leases')
      .where({ process_id: processId })
      .update({ expires_at: knex.raw(`now() + make_interval(secs => ?)`, [config.leaseSeconds]) })
      .returning(['id']);
    const alive = new Set(rowsOf(rows).map((r: any) => Number(r.id)));
    for (const [id, c] of [...byLease]) if (!alive.has(id) && c.leasedAt < started - 1000) close(c, 'member-limit');
  }

  /** Writes, or drops a consumer whose socket already holds too much unsent data. */
  function write(c: Conn, text: string): void {
    if (c.closed) return;
    if (c.res.writableLength > config.maxBufferedBytes) {
      close(c, 'slow');
      c.res.destroy();
      return;
    }
    c.res.write(text);
  }

  function deliverLocal(ev: LiveEvent): void {
    const list = byUser.get(ev.userId);
    if (!list) return;
    for (const c of [...list]) {
      if (c.pending) c.pending.push(ev);
      else if (c.replayed?.has(ev.id)) continue;
      else {
        write(c, frame(ev));
        sent.inc();
      }
    }
  }

  async function onNotification(payload: string | undefined): Promise<void> {
    if (!payload) return;
    let entries: any;
    try {
      entries = JSON.parse(payload);
    } catch {
      return;
    }
    if (!Array.isArray(entries) && typeof entries?.signal === 'string') {
      // a process signal (LiveApi.signal, or a database trigger); this process ran its own already
      if (entries.from !== processId) dispatchSignal(entries.signal, entries.data ?? null);
      return;
    }
    if (!Array.isArray(entries)) {
      // another process gave up leases of streams this one may hold (the member's limit)
      for (const id of Array.isArray(entries?.close) ? entries.close : []) {
        const c = byLease.get(Number(id));
        if (c) close(c, 'member-limit');
      }
      return;
    }
    const fetchIds: number[] = [];
    for (const e of entries) {
      if (!Array.isArray(e)) continue;
      if (e.length === 1) {
        if (byUser.size) fetchIds.push(Number(e[0]));
      } else deliverLocal({ id: Number(e[0]), userId: Number(e[1]), type: String(e[2]), data: e[3] });
    }
    if (fetchIds.length) {
      const rows = await knex('core_stream_events').whereIn('id', fetchIds).whereIn('user_id', [...byUser.keys()]).orderBy('id');
      for (const r of rows) deliverLocal({ id: Number(r.id), userId: Number(r.user_id), type: r.type, data: r.data });
    }
  }

  function dispatchSignal(topic: string, data: unknown): void {
    for (const fn of signalHandlers.get(topic) ?? []) {
      try {
        fn(data);
      } catch (err) {
        log.error({ err, topic }, 'live updates: signal handler failed');
      }
    }
  }
  /** notifications may have been missed: every handler forgets */
  function signalsLost(): void {
    for (const topic of signalHandlers.keys()) dispatchSignal(topic, null);
  }

  async function connectListener(attempt = 0): Promise<void> {
    if (stopped) return;
    if (opts.kind === 'pglite' && opts.pglite && !embeddedListening) {
      try {
        const unlisten = await opts.pglite.listen(STREAM_CHANNEL, (payload) => {
          onNotification(payload).catch((err) => log.error({ err }, 'live updates: delivery failed'));
        });
        embeddedUnlisten = typeof unlisten === 'function' ? (unlisten as () => Promise<void>) : null;
        embeddedListening = true;
      } catch (err) {
        log.warn({ err }, 'live updates: the embedded database cannot LISTEN; no process signals');
      }
      return;
    }
    if (opts.kind !== 'postgres' || !opts.databaseUrl) return;
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    const retry = () => {
      if (stopped || reconnectTimer) return;
      if (listener) signalsLost();
      listener = null;
      const wait = Math.min(30_000, 250 * 2 ** Math.min(attempt, 7));
      reconnectTimer = setTimeout(() => {
        reconnectTimer = null;
        void connectListener(attempt + 1);
      }, wait);
      reconnectTimer.unref();
    };
    c.on('error', (err) => {
      log.warn({ err }, 'live updates: LISTEN connection failed; reconnecting');
      c.end().catch(() => {});
      retry();
    });
    c.on('end', () => {
      if (!stopped) retry();
    });
    c.on('notification', (n) => {
      if (n.channel === STREAM_CHANNEL) onNotification(n.payload).catch((err) => log.error({ err }, 'live updates: delivery failed'));
    });
    try {
      await c.connect();
      await c.query(`listen ${STREAM_CHANNEL}`);
      listener = c;
      attempt = 0;
      // whatever was signalled while no connection listened is lost
      signalsLost();
    } catch (err) {
      log.warn({ err }, 'live updates: cannot LISTEN; reconnecting');
      c.end().catch(() => {});
      retry();
    }
  }

  const purgeTimer = setInterval(() => {
    knex('core_stream_events')
      .where('created_at', '<', knex.raw(`now() - make_interval(secs => ?)`, [config.retentionSeconds * 2]))
      .del()
      .catch((err) => log.warn({ err }, 'live updates: purge failed'));
    // leases of processes that died
    knex('core_stream_leases')
      .where('expires_at', '<', knex.fn.now())
      .del()
      .catch((err) => log.warn({ err }, 'live updates: lease purge failed'));
  }, 60_000);
  purgeTimer.unref();

  const heartbeat = setInterval(() => {
    for (const list of byUser.values()) for (const c of [...list]) write(c, ': ping\n\n');
  }, config.heartbeatMs);
  heartbeat.unref();

  const leaseTimer = setInterval(() => {
    refreshLeases().catch((err) => log.warn({ err }, 'live updates: lease refresh failed'));
  }, leaseRefreshMs);
  leaseTimer.unref();

  /** Delivers stored events: in process on the embedded database, else to every process through notifications. */
  async function deliver(evs: LiveEvent[]): Promise<void> {
    if (!evs.length) return;
    if (opts.kind !== 'postgres') {
      for (const ev of evs) deliverLocal(ev);
      return;
    }
    // chunks of entries that fit in one notification; an event too large goes as its id
    const chunks: string[] = [];
    let cur: string[] = [];
    let size = 2;
    for (const ev of evs) {
      let entry = JSON.stringify([ev.id, ev.userId, ev.type, ev.data ?? {}]);
      if (entry.length > NOTIFY_LIMIT - 2) entry = JSON.stringify([ev.id]);
      if (size + entry.length + 1 > NOTIFY_LIMIT && cur.length) {
        chunks.push(`[${cur.join(',')}]`);
        cur = [];
        size = 2;
      }
      cur.push(entry);
      size += entry.length + 1;
    }
    if (cur.length) chunks.push(`[${cur.join(',')}]`);
    for (const ch of chunks) await knex.raw('select pg_notify(?, ?)', [STREAM_CHANNEL, ch]);
  }

  const api: LiveApi = {
    async publish(events) {
      const list = events.filter((e) => Number.isInteger(e.userId) && e.userId > 0 && e.type);
      if (!list.length) return;
      try {
        const rows = await knex('core_stream_events')
          .insert(list.map((e) => ({ user_id: e.userId, type: e.type.slice(0, 64), data: JSON.stringify(e.data ?? {}) })))
          .returning(['id', 'user_id', 'type']);
        await deliver(rows.map((r: any, i: number) => ({ id: Number(r.id), userId: Number(r.user_id), type: r.type, data: list[i].data ?? {} })));
      } catch (err) {
        log.error({ err }, 'live updates: publish failed');
      }
    },
    publishTo(userIds, type, data) {
      return api.publish([...new Set(userIds)].map((userId) => ({ userId, type, data })));
    },
    hasOpenStream(col) {
      return knex.raw(`exists (select 1 from core_stream_leases l where l.user_id = ?? and l.expires_at > now())`, [col]);
    },
    async publishToOpen(audience, type, data) {
      if (!type || (Array.isArray(audience) && !audience.length)) return;
      try {
        const ids = Array.isArray(audience) ? knex.raw('select unnest(?::int[])', [audience.filter((id) => Number.isInteger(id) && id > 0)]) : audience;
        const body = data ?? {};
        const name = type.slice(0, 64);
        const r = await knex.raw(
          `insert into core_stream_events (user_id, type, data)
           select distinct l.user_id, ?, ?::jsonb from core_stream_leases l
           where l.user_id in (?) and l.expires_at > now()
           returning id, user_id`,
          [name, JSON.stringify(body), ids],
        );
        await deliver(rowsOf(r).map((row: any) => ({ id: Number(row.id), userId: Number(row.user_id), type: name, data: body })));
      } catch (err) {
        log.error({ err }, 'live updates: publish failed');
      }
    },
    async signal(topic, data) {
      dispatchSignal(topic, data);
      const text = JSON.stringify({ signal: topic, from: processId, data });
      if (text.length > NOTIFY_LIMIT) {
        log.error({ topic, bytes: text.length }, 'live updates: signal too large for a notification; not sent to other processes');
        return;
      }
      if (opts.kind !== 'postgres') return;
      try {
        // on the LISTEN connection when it is up: outside the pool, not one of the request's statements
        if (listener) await listener.query('select pg_notify($1, $2)', [STREAM_CHANNEL, text]);
        else await knex.raw('select pg_notify(?, ?)', [STREAM_CHANNEL, text]);
      } catch (err) {
        log.error({ err, topic }, 'live updates: signal failed');
      }
    },
    onSignal(topic, fn) {
      const list = signalHandlers.get(topic) ?? [];
      list.push(fn);
      signalHandlers.set(topic, list);
    },
    signalsLive: () => !stopped && (opts.kind === 'postgres' ? listener !== null : embeddedListening),
  };

  /** The handler of GET /api/stream (a raw route: it writes the socket itself). */
  async function handle(ctx: Koa.Context, userId: number): Promise<void> {
    if (open >= config.maxPerProcess) {
      throw new HttpError(503, 'Too many open streams on this server; try again shortly', { headers: { 'Retry-After': '10' } });
    }
    const lastRaw = String(ctx.get('last-event-id') || ctx.query.lastEventId || '').trim();
    const lastId = /^\d{1,18}$/.test(lastRaw) ? Number(lastRaw) : null;
    let lease: Awaited<ReturnType<typeof takeLease>>;
    try {
      lease = await takeLease(userId);
    } catch (err) {
      log.error({ err }, 'live updates: cannot take a stream lease');
      throw new HttpError(503, 'Live updates are unavailable; try again shortly', { headers: { 'Retry-After': '10' } });
    }
    if (ctx.req.destroyed || stopped) {
      await knex('core_stream_leases').where({ id: lease.id }).del().catch(() => {});
      throw new HttpError(503, 'Live updates are unavailable; try again shortly', { headers: { 'Retry-After': '10' } });
    }
    const res = ctx.res;
    // written by hand: never compressed or buffered (koa-compress and Koa's body handling stay out)
    ctx.respond = false;
    ctx.status = 200;
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const c: Conn = { seq: ++seq, userId, res, pending: lastId !== null ? [] : null, replayed: null, closed: false, leaseId: lease.id, leasedAt: performance.now() };
    open++;
    byLease.set(lease.id, c);
    const list = byUser.get(userId) ?? [];
    list.push(c);
    byUser.set(userId, list);
    res.on('close', () => close(c, null));
    await evict(lease.evicted);
    res.write(`retry: 3000\n: connected\n\n`);
    if (lastId !== null) {
      const seen = new Set<number>();
      try {
        const rows = await knex('core_stream_events')
          .where({ user_id: userId })
          .where('id', '>', lastId)
          .where('created_at', '>', knex.raw(`now() - make_interval(secs => ?)`, [config.retentionSeconds]))
          .orderBy('id')
          .limit(1000);
        for (const r of rows) {
          seen.add(Number(r.id));
          write(c, frame({ id: Number(r.id), userId, type: r.type, data: r.data }));
          sent.inc();
        }
      } catch (err) {
        log.error({ err }, 'live updates: replay failed');
      }
      const pending = c.pending ?? [];
      c.pending = null;
      if (seen.size) {
        c.replayed = seen;
        setTimeout(() => (c.replayed = null), 30_000).unref();
      }
      for (const ev of pending) {
        if (seen.has(ev.id)) continue;
        write(c, frame(ev));
        sent.inc();
      }
    }
  }

  return {
    api,
    handle,
    start: () => connectListener(),
    openCount: () => open,
    async stop() {
      stopped = true;
      clearInterval(purgeTimer);
      clearInterval(heartbeat);
      clearInterval(leaseTimer);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      for (const l of [...byUser.values()]) for (const c of [...l]) close(c, null);
      await knex('core_stream_leases').where({ process_id: processId }).del().catch(() => {});
      if (listener) await listener.end().catch(() => {});
      listener = null;
      embeddedListening = false;
      if (embeddedUnlisten) await embeddedUnlisten().catch(() => {});
      embeddedUnlisten = null;
    },
  };
}

export type StreamHub = ReturnType<typeof createStreamHub>;
