/**
 * npm run db:reset (developers): empties the database and loads the migrations and seeds again.
 * Embedded database: removes DATA_DIR/db. PostgreSQL: drops and recreates the public schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import { loadConfig } from '../core/config.ts';

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
  if (fs.existsSync(path.join(config.dataDir, 'db.lock'))) {
    console.error(`The embedded database in ${dir} is in use (is the app running?). Stop it first.`);
    process.exit(1);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`Removed ${dir}.`);
}
const { withApp } = await import('./cli.ts');
await withApp(async (app) => {
  const seeded = await app.seed({ bar: process.stdout.isTTY ?? false });
  console.log(`Migrated and seeded (${seeded.join(', ') || 'no seeds'}).`);
});
process.exit(0);
