import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { CurioConfig } from './config.ts';
import { DatabaseLockedError, lockEmbeddedDatabase } from './db-lock.ts';
import { PlanCachedPgClient } from './plan-cache.ts';

export { DatabaseLockedError };

// Return bigint counts and numerics as numbers where safe: COUNT(*) answers int8.
pg.types.setTypeParser(20, (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

/** Whether this knex talks to a PostgreSQL server (not the embedded PGlite): advisory locks across processes. */
export function isPostgresServer(knex: Knex): boolean {
  const client = (knex.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === PlanCachedPgClient;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /** the embedded database itself (PGlite): its LISTEN (`listen(channel, fn)`) for the cross-process signals' in-process path */
  pglite?: { listen(channel: string, fn: (payload: string) => void): Promise<unknown> };
}

async function openPglite(dataDir: string | null): Promise<{ knex: Knex; pglite: NonNullable<Database['pglite']> }> {
  const [{ PGlite }, { pg_trgm }, { citext }, ClientPgLite] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/citext'),
    import('knex-pglite').then((m) => m.default),
  ]);
  const extensions = { pg_trgm, citext };
  const pglite = dataDir ? new PGlite(dataDir, { extensions }) : new PGlite({ extensions });
  await pglite.waitReady;
  const knex = knexFactory({
    client: ClientPgLite as any,
    dialect: 'postgres',
    connection: (() => ({ pglite })) as any,
    useNullAsDefault: false,
  } as Knex.Config);
  // PGlite parses int8 as BigInt-safe strings? Normalise counts the same way as pg.
  return { knex, pglite };
}

/**
 * Opens the database: PostgreSQL when databaseUrl is set, otherwise embedded PGlite in
 * `<dataDir>/db` (or in memory for `memory: true`). The embedded database is single-process:
 * a lock (core/db-lock.ts) makes a second process stop with a clear message instead of corrupting
 * it, and a process started after a crash takes the dead owner's lock over at once.
 */
export const DEFAULT_POOL_MAX = 10;
/** none by default: migrations and bulk jobs on a large database may run longer than any request should */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 0;
/**
 * PostgreSQL's JIT compiles a statement's expressions to machine code when its plan's estimated cost
 * passes `jit_above_cost` (100,000 by default). The app's statements are short reads and writes: a
 * plan costed over that line by a branch that never runs (the feed's fallback for members who follow
 * more than 400 people and museums, at limit 50) spent 150 ms compiling to run for 2 (issue 18). The
 * compiled code is not kept, so a statement planned for its values paid it on every run. Off on the
 * app's connections unless `database.jit` (DB_JIT=1) asks for the server's own setting.
 */
export const DEFAULT_JIT = false;

export async function openDatabase(
  config: Pick<CurioConfig, 'databaseUrl' | 'dataDir'> & Partial<Pick<CurioConfig, 'database'>>,
  opts: { memory?: boolean; poolMax?: number } = {},
): Promise<Database> {
  if (config.databaseUrl) {
    // Pool size and statement timeout from config (database.poolMax / DB_POOL_MAX, database.statementTimeoutMs).
    const timeout = config.database?.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const knex = knexFactory({
      client: config.database?.planCache === false ? 'pg' : (PlanCachedPgClient as unknown as typeof Knex.Client),
      // startup parameters of every connection (no statement more): the timeout, and JIT off
      connection: {
        connectionString: config.databaseUrl,
        ...(timeout > 0 ? { statement_timeout: timeout } : {}),
        ...((config.database?.jit ?? DEFAULT_JIT) ? {} : { options: '-c jit=off' }),
      },
      pool: { min: 0, max: opts.poolMax ?? config.database?.poolMax ?? DEFAULT_POOL_MAX },
    });
    await knex.raw('select 1');
    return { knex, kind: 'postgres', close: () => knex.destroy() };
  }
  if (opts.memory) {
    const { knex, pglite } = await openPglite(null);
    return { knex, kind: 'pglite', pglite, close: () => knex.destroy() };
  }
  const dir = path.join(config.dataDir, 'db');
  fs.mkdirSync(dir, { recursive: true });
  const release = await lockEmbeddedDatabase(config.dataDir, dir);
  try {
    const { knex, pglite } = await openPglite(dir);
    await knex.raw('select 1');
    return {
      knex,
      kind: 'pglite',
      pglite,
      close: async () => {
        await knex.destroy();
        await release().catch(() => {});
      },
    };
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }
}
