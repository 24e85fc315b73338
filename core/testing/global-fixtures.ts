/**
 * Mocha global fixtures (main process): names this run, migrates its template database once before
 * the workers start (each test app's database is a copy of it: core/testing/index.ts), and at the
 * end drops every database of the run, even when a worker died before closing its app.
 */
import crypto from 'node:crypto';
import knexFactory from 'knex';

process.env.TEST_RUN_ID ??= crypto.randomBytes(3).toString('hex');
process.env.NODE_ENV = 'test';

export async function mochaGlobalSetup() {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  // imported here: the workers load this file too, and need none of it
  const { TEMPLATE_DB } = await import('./index.ts');
  const { openDatabase } = await import('../db.ts');
  const { discoverPlugins, resolvePlugins } = await import('../plugins.ts');
  const { migrateAll } = await import('../migrate.ts');
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`create database "${TEMPLATE_DB}"`);
  } finally {
    await admin.destroy();
  }
  const u = new URL(base);
  u.pathname = `/${TEMPLATE_DB}`;
  const db = await openDatabase({ databaseUrl: u.toString(), dataDir: '/tmp' }, { poolMax: 2 });
  try {
    // every plugin's migrations, enabled or not, as an app runs them
    await migrateAll(db.knex, resolvePlugins(await discoverPlugins(), []));
  } finally {
    // no connection may stay open on a template that is being copied
    await db.close();
  }
}

export async function mochaGlobalTeardown() {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  try {
    const rows = await admin('pg_database').where('datname', 'like', `curio_test_${process.env.TEST_RUN_ID}_%`).pluck('datname');
    for (const name of rows) await admin.raw(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.destroy();
  }
}
