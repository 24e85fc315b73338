/** Pool size, statement timeout and JIT come from config (issue 18), on PostgreSQL. */
import { expect } from 'chai';
import { adminUrl } from './testing/index.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db.ts';

describe('database pool and statement timeout from config', function () {
  this.timeout(30000);
  before(function () {
    if (!adminUrl()) this.skip();
  });

  it('DB_POOL_MAX and DB_STATEMENT_TIMEOUT_MS reach the pool and every connection', async () => {
    const config = loadConfig({ dataDir: '/tmp/curio-db-config' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()!, DB_POOL_MAX: '3', DB_STATEMENT_TIMEOUT_MS: '150' });
    expect(config.database).to.deep.equal({ poolMax: 3, statementTimeoutMs: 150 });
    // the deployment notes' first name for the same setting; DB_POOL_MAX wins when both are set
    expect(loadConfig({}, { NODE_ENV: 'test', DATABASE_POOL_MAX: '4' }).database?.poolMax).to.equal(4);
    expect(loadConfig({}, { NODE_ENV: 'test', DATABASE_POOL_MAX: '4', DB_POOL_MAX: '6' }).database?.poolMax).to.equal(6);
    const db = await openDatabase(config);
    try {
      expect((db.knex.client as any).pool.max).to.equal(3);
      expect((await db.knex.raw('show statement_timeout')).rows[0].statement_timeout).to.equal('150ms');
      const e = await db.knex.raw('select pg_sleep(1)').then(() => null, (err) => err);
      expect(e?.code).to.equal('57014'); // canceled by statement_timeout
    } finally {
      await db.close();
    }
  });

  it('without them: 10 connections and no statement timeout', async () => {
    const config = loadConfig({ dataDir: '/tmp/curio-db-config' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()! });
    const db = await openDatabase(config);
    try {
      expect((db.knex.client as any).pool.max).to.equal(10);
      expect((await db.knex.raw('show statement_timeout')).rows[0].statement_timeout).to.equal('0');
      // JIT off on every connection of the pool, not only the first
      const shown = await Promise.all([1, 2, 3].map(() => db.knex.transaction(async (trx) => (await trx.raw('show jit')).rows[0].jit)));
      expect(shown).to.deep.equal(['off', 'off', 'off']);
    } finally {
      await db.close();
    }
  });

  it('JIT: off unless DB_JIT asks for the server\'s own setting', async () => {
    const config = loadConfig({ dataDir: '/tmp/curio-db-config' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()!, DB_JIT: '1' });
    expect(config.database).to.deep.equal({ jit: true });
    const db = await openDatabase(config);
    try {
      // the server's own setting (on as PostgreSQL ships it, or what its configuration says): not the app's
      expect((await db.knex.raw(`select source from pg_settings where name = 'jit'`)).rows[0].source).to.not.equal('client');
    } finally {
      await db.close();
    }
    const off = await openDatabase(loadConfig({ dataDir: '/tmp/curio-db-config' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()! }));
    try {
      expect((await off.knex.raw(`select setting, source from pg_settings where name = 'jit'`)).rows[0]).to.deep.equal({ setting: 'off', source: 'client' });
    } finally {
      await off.close();
    }
  });
});
