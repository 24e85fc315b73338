import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { CurioConfig } from './config.ts';
import { DatabaseLockedError, lockEmbeddedDatabase } from './db-lock.ts';

export { DatabaseLockedError };

// Return bigint counts and numerics as numbers where safe: COUNT(*) answers int8.
pg.types.setTypeParser(20, (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

async function openPglite(dataDir: string | null): Promise<Knex> {
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
  return knex;
}

/**
 * Opens the database: PostgreSQL when databaseUrl is set, otherwise embedded PGlite in
 * `<dataDir>/db` (or in memory for `memory: true`). The embedded database is single-process:
 * a lock (core/db-lock.ts) makes a second process stop with a clear message instead of corrupting
 * it, and a process started after a crash takes the dead owner's lock over at once.
 */
export async function openDatabase(config: Pick<CurioConfig, 'databaseUrl' | 'dataDir'>, opts: { memory?: boolean; poolMax?: number } = {}): Promise<Database> {
  if (config.databaseUrl) {
    const knex = knexFactory({
      client: 'pg',
      connection: config.databaseUrl,
      pool: { min: 0, max: opts.poolMax ?? 10 },
    });
    await knex.raw('select 1');
    return { knex, kind: 'postgres', close: () => knex.destroy() };
  }
  if (opts.memory) {
    const knex = await openPglite(null);
    return { knex, kind: 'pglite', close: () => knex.destroy() };
  }
  const dir = path.join(config.dataDir, 'db');
  fs.mkdirSync(dir, { recursive: true });
  const release = await lockEmbeddedDatabase(config.dataDir, dir);
  try {
    const knex = await openPglite(dir);
    await knex.raw('select 1');
    return {
      knex,
      kind: 'pglite',
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
