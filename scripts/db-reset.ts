/**
 * npm run db:reset (developers): empties the database and loads the migrations and seeds again.
 * Embedded database: removes DATA_DIR/db. PostgreSQL: drops and recreates the public schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import { loadConfig } from '../core/config.ts';
import { DatabaseLockedError, lockEmbeddedDatabase } from '../core/db-lock.ts';

const config = loadConfig({ logLevel: 'warn' });
if (process.env.NODE_ENV === 'production' && !process.argv.includes('--force')) {
  console.error('Refusing to reset a production database without --force.');
  process.exit(1);
}
if (config.databaseUrl) {
  const knex = knexFactory({ client: 'pg', connection: config.databaseUrl });
  await knex.raw('drop schema public cascade');
  await knex.raw('create schema public');
  await knex.destroy();
  console.log('PostgreSQL schema dropped and recreated.');
} else {
  const dir = path.join(config.dataDir, 'db');
  // The app's own lock: refused while a live process holds it; a lock left by a crash is taken over.
  let release: () => Promise<void>;
  try {
    release = await lockEmbeddedDatabase(config.dataDir, dir);
  } catch (e) {
    if (!(e instanceof DatabaseLockedError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  await release();
  console.log(`Removed ${dir}.`);
}
const { withApp } = await import('./cli.ts');
await withApp(async (app) => {
  const seeded = await app.seed({ bar: process.stdout.isTTY ?? false });
  console.log(`Migrated and seeded (${seeded.join(', ') || 'no seeds'}).`);
});
process.exit(0);
