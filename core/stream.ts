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
 * - Limits: at most `maxPerMember` streams per member in a process (the oldest is closed), at most
 *   `maxPerProcess` streams (503 beyond), and a stream whose socket holds more than
 *   `maxBufferedBytes` unsent is closed (the tab reconnects and resumes), never buffered without bound.
 * - A comment line every `heartbeatMs` keeps proxies from closing an idle stream.
 */
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
}

export interface StreamConfig {
  maxPerMember: number;
  maxPerProcess: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  retentionSeconds: number;
}

export const STREAM_DEFAULTS: StreamConfig = {
  maxPerMember: 10,
  maxPerProcess: 10000,
  heartbeatMs: 25000,
  maxBufferedBytes: 256 * 1024,
  retentionSeconds: 300,
};

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
}

const NOTIFY_LIMIT = 7900;
const rowsOf = (r: any): any[] => (Array.isArray(r) ? r : (r?.rows ?? []));

export function createStreamHub(opts: {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  databaseUrl: string | null;
  log: Logger;
  config: StreamConfig;
  registry: client.Registry;
}) {
  const { knex, log, config } = opts;
  const byUser = new Map<number, Conn[]>();
  let open = 0;
  let seq = 0;
  let listener: pg.Client | null = null;
  let stopped = false;
  let reconnectTimer: NodeJS.Timeout | null = null;

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
    let entries: any[];
    try {
      entries = JSON.parse(payload);
    } catch {
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

  async function connectListener(attempt = 0): Promise<void> {
    if (stopped || opts.kind !== 'postgres' || !opts.databaseUrl) return;
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    const retry = () => {
      if (stopped || reconnectTimer) return;
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
  }, 60_000);
  purgeTimer.unref();

  const heartbeat = setInterval(() => {
    for (const list of byUser.values()) for (const c of [...list]) write(c, ': ping\n\n');
  }, config.heartbeatMs);
  heartbeat.unref();

  const api: LiveApi = {
    async publish(events) {
      const list = events.filter((e) => Number.isInteger(e.userId) && e.userId > 0 && e.type);
      if (!list.length) return;
      try {
        const rows = await knex('core_stream_events')
          .insert(list.map((e) => ({ user_id: e.userId, type: e.type.slice(0, 64), data: JSON.stringify(e.data ?? {}) })))
          .returning(['id', 'user_id', 'type']);
        const evs: LiveEvent[] = rows.map((r: any, i: number) => ({ id: Number(r.id), userId: Number(r.user_id), type: r.type, data: list[i].data ?? {} }));
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
      } catch (err) {
        log.error({ err }, 'live updates: publish failed');
      }
    },
    publishTo(userIds, type, data) {
      return api.publish([...new Set(userIds)].map((userId) => ({ userId, type, data })));
    },
  };

  /** The handler of GET /api/stream (a raw route: it writes the socket itself). */
  async function handle(ctx: Koa.Context, userId: number): Promise<void> {
    if (open >= config.maxPerProcess) {
      throw new HttpError(503, 'Too many open streams on this server; try again shortly', { headers: { 'Retry-After': '10' } });
    }
    const lastRaw = String(ctx.get('last-event-id') || ctx.query.lastEventId || '').trim();
    const lastId = /^\d{1,18}$/.test(lastRaw) ? Number(lastRaw) : null;
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
    const c: Conn = { seq: ++seq, userId, res, pending: lastId !== null ? [] : null, replayed: null, closed: false };
    open++;
    const list = byUser.get(userId) ?? [];
    list.push(c);
    byUser.set(userId, list);
    while (list.length > config.maxPerMember) close(list[0], 'member-limit');
    res.on('close', () => close(c, null));
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
      if (reconnectTimer) clearTimeout(reconnectTimer);
      for (const l of [...byUser.values()]) for (const c of [...l]) close(c, null);
      if (listener) await listener.end().catch(() => {});
      listener = null;
    },
  };
}

export type StreamHub = ReturnType<typeof createStreamHub>;
