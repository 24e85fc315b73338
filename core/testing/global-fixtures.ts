/**
 * Mocha global fixtures (main process): names this run, migrates its template database once before
 * the workers start (each test app's database is a copy of it: core/testing/index.ts), and at the
 * end drops every database of the run, even when a worker died before closing its app.
 */
import crypto from 'node:crypto';

process.env.TEST_RUN_ID ??= crypto.randomBytes(3).toString('hex');
process.env.NODE_ENV = 'test';

export async function mochaGlobalSetup() {
  if (!process.env.DATABASE_URL) return;
  // imported here: the workers load this file too, and need none of it
  const { TEMPLATE_DB, withAdmin, databaseUrl } = await import('./index.ts');
  const { openDatabase } = await import('../db.ts');
  const { discoverPlugins, resolvePlugins } = await import('../plugins.ts');
  const { migrateAll } = await import('../migrate.ts');
  await withAdmin((admin) => admin.raw(`create database "${TEMPLATE_DB}"`));
  const db = await openDatabase({ databaseUrl: databaseUrl(TEMPLATE_DB), dataDir: '/tmp' }, { poolMax: 2 });
  try {
    // every plugin's migrations, enabled or not, as an app runs them
    await migrateAll(db.knex, resolvePlugins(await discoverPlugins(), []));
  } finally {
    // no connection may stay open on a template that is being copied
    await db.close();
  }
}

export async function mochaGlobalTeardown() {
  if (!process.env.DATABASE_URL) return;
  const { withAdmin } = await import('./index.ts');
  await withAdmin(async (admin) => {
    const rows = await admin('pg_database').where('datname', 'like', `curio_test_${process.env.TEST_RUN_ID}_%`).pluck('datname');
    for (const name of rows) await admin.raw(`drop database if exists "${name}" with (force)`);
  });
}
