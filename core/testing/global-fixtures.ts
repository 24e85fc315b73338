/**
 * Mocha global fixtures (main process): names this run, and at the end drops every database the
 * run's workers created, even when a worker died before closing its app.
 */
import crypto from 'node:crypto';
import knexFactory from 'knex';

process.env.TEST_RUN_ID ??= crypto.randomBytes(3).toString('hex');
process.env.NODE_ENV = 'test';

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
