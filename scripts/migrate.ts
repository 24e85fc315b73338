/** npm run migrate: applies every plugin's migrations (createApp does it) and lists the state. */
import { withApp } from './cli.ts';

await withApp(async (app) => {
  const rows = await app.knex('information_schema.tables').where('table_schema', 'public').where('table_name', 'like', 'knex_migrations_%').whereNot('table_name', 'like', '%_lock').pluck('table_name');
  let total = 0;
  for (const t of rows.sort()) {
    const n = Number((await app.knex(t).count({ n: '*' }))[0].n);
    total += n;
    console.log(`  ${t.replace('knex_migrations_', '').padEnd(16)} ${n} migration(s)`);
  }
  console.log(`Database is up to date (${total} migrations, ${app.db.kind}).`);
});
process.exit(0);
