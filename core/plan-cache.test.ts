/** Plan cache on PostgreSQL (issue 18): repeated statements become prepared statements, and a schema change does not break them. */
import { expect } from 'chai';
import { adminUrl } from './testing/index.ts';
import { loadConfig } from './config.ts';
import { openDatabase, type Database } from './db.ts';
import { createRequire } from 'node:module';
import { CUSTOM_PLAN, MAX_POSITIONED, PREPARE_AFTER } from './plan-cache.ts';

describe('plan cache: repeated statements are prepared once per connection', function () {
  this.timeout(30000);
  let db: Database;
  const table = `plan_cache_${process.pid}`;
  before(async function () {
    if (!adminUrl()) this.skip();
    // one connection, so every statement below runs where pg_prepared_statements is read
    const config = loadConfig({ dataDir: '/tmp/curio-plan-cache' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()!, DB_POOL_MAX: '1' });
    db = await openDatabase(config);
    await db.knex.schema.dropTableIfExists(table);
    await db.knex.schema.createTable(table, (t) => {
      t.integer('a');
    });
    await db.knex(table).insert([{ a: 1 }, { a: 2 }]);
  });
  after(async () => {
    if (!db) return;
    await db.knex.schema.dropTableIfExists(table);
    await db.close();
  });

  const prepared = async (like: string): Promise<string[]> =>
    (await db.knex.raw(`select statement from pg_prepared_statements where statement like ?`, [`%${like}%`])).rows.map((r: any) => r.statement);

  it(`a statement with bindings is prepared from run ${PREPARE_AFTER} on, and its answers are unchanged`, async () => {
    const answers = [];
    for (let i = 0; i < PREPARE_AFTER + 3; i++) answers.push(await db.knex(table).where('a', '>', 0).orderBy('a').select('a'));
    for (const a of answers) expect(a).to.deep.equal([{ a: 1 }, { a: 2 }]);
    expect(await prepared(`from "${table}" where "a" >`)).to.have.length(1);
  });

  it('the `?` → `$n` rewrite, remembered per text, writes what knex writes (escaped `\\?` too), again and past its bound', async () => {
    const ClientPg: any = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js');
    const knexOwn = (sql: string) => ClientPg.prototype.positionBindings.call(null, sql);
    const client = db.knex.client as any;
    const texts = ['select 1 where a = ? and b = ?', "select '\\?' as q, ? as x, data \\? 'k' as has", 'select ?? from t where x in (?, ?, ?)', 'no bindings'];
    for (let round = 0; round < 3; round++) for (const t of texts) expect(client.positionBindings(t)).to.equal(knexOwn(t));
    expect(client.positionBindings('select ? where b = ?')).to.equal('select $1 where b = $2');
    // more texts than it keeps: it starts afresh and still answers right
    for (let i = 0; i < MAX_POSITIONED + 10; i++) expect(client.positionBindings(`select ? + ${i}`)).to.equal(`select $1 + ${i}`);
    for (const t of texts) expect(client.positionBindings(t)).to.equal(knexOwn(t));
    // and the statements run: a `?` escaped for PostgreSQL's jsonb operator stays a `?`
    expect((await db.knex.raw(`select ?::jsonb \\? 'k' as has, ?::int as x`, ['{"k":1}', 7])).rows).to.deep.equal([{ has: true, x: 7 }]);
  });

  it('a statement run once, and one without bindings, stay unnamed', async () => {
    await db.knex(table).where('a', '<', 100).select('a');
    for (let i = 0; i < 4; i++) await db.knex.raw(`select count(*) from "${table}"`);
    expect(await prepared(`where "a" <`)).to.have.length(0);
    expect(await prepared(`select count(*) from "${table}"`)).to.have.length(0);
  });

  it('a statement marked CUSTOM_PLAN stays unnamed however often it runs (planned for its values each time)', async () => {
    for (let i = 0; i < PREPARE_AFTER + 3; i++) {
      expect(await db.knex(table).whereRaw(`a >= ? ${CUSTOM_PLAN}`, [2]).select('a')).to.deep.equal([{ a: 2 }]);
    }
    expect(await prepared('curio:custom-plan')).to.have.length(0);
  });

  it('a prepared select * still answers after its table gains a column (outside a transaction: deallocated and run again)', async () => {
    const q = () => db.knex(table).where('a', 1).select('*');
    for (let i = 0; i < PREPARE_AFTER + 1; i++) expect(await q()).to.deep.equal([{ a: 1 }]);
    expect(await prepared(`select * from "${table}" where "a" =`)).to.have.length(1);
    await db.knex.schema.alterTable(table, (t) => {
      t.integer('b').defaultTo(7);
    });
    expect(await q()).to.deep.equal([{ a: 1, b: 7 }]);
    expect(await q()).to.deep.equal([{ a: 1, b: 7 }]);
  });

  it('inside a transaction the error stands once; the statement works again after it', async () => {
    const q = (k: typeof db.knex) => k(table).where('a', 2).select('*');
    for (let i = 0; i < PREPARE_AFTER + 1; i++) await q(db.knex);
    await db.knex.schema.alterTable(table, (t) => {
      t.integer('c').defaultTo(9);
    });
    const e = await db.knex.transaction((trx) => q(trx)).then(() => null, (err) => err);
    expect(e?.code).to.equal('0A000');
    // another transaction on the same connection does not reuse the stale name
    expect(await db.knex.transaction((trx) => q(trx))).to.deep.equal([{ a: 2, b: 7, c: 9 }]);
    expect(await q(db.knex)).to.deep.equal([{ a: 2, b: 7, c: 9 }]);
    expect(await q(db.knex)).to.deep.equal([{ a: 2, b: 7, c: 9 }]);
  });

  it('DB_PLAN_CACHE=0 turns it off', async () => {
    const config = loadConfig({ dataDir: '/tmp/curio-plan-cache' }, { NODE_ENV: 'test', DATABASE_URL: adminUrl()!, DB_POOL_MAX: '1', DB_PLAN_CACHE: '0' });
    expect(config.database?.planCache).to.equal(false);
    const off = await openDatabase(config);
    try {
      for (let i = 0; i < PREPARE_AFTER + 3; i++) await off.knex(table).where('a', '>=', 0).select('a');
      const rows = (await off.knex.raw(`select count(*)::int as n from pg_prepared_statements`)).rows;
      expect(rows[0].n).to.equal(0);
    } finally {
      await off.close();
    }
  });
});
