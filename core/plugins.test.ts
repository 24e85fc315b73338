import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from './config.ts';
import { resolvePlugins, sortPlugins, discoverPlugins } from './plugins.ts';
import { startTestApp } from './testing/index.ts';

describe('plugin loading', () => {
  it('orders plugins after their dependencies', async () => {
    const order = sortPlugins(await discoverPlugins()).map((m) => m.id);
    for (const m of await discoverPlugins()) {
      for (const dep of m.dependsOn ?? []) expect(order.indexOf(dep), `${dep} before ${m.id}`).to.be.lessThan(order.indexOf(m.id));
    }
    expect(order[0]).to.equal('accounts');
  });

  it('fails with a clear message when an enabled plugin depends on a disabled one', async () => {
    const manifests = await discoverPlugins();
    expect(() => resolvePlugins(manifests, ['museums'])).to.throw(/Plugin 'insights' depends on 'museums', which is disabled/);
  });

  it('fails on a dependency that does not exist and on a dependency cycle', () => {
    expect(() => resolvePlugins([{ id: 'a', dependsOn: ['ghost'] }], [])).to.throw(/'a' depends on 'ghost', which does not exist/);
    expect(() => sortPlugins([{ id: 'a', dependsOn: ['b'] }, { id: 'b', dependsOn: ['a'] }])).to.throw(/cycle/);
  });

  it('refuses an unknown plugin name in plugins.disabled', async () => {
    expect(() => resolvePlugins([{ id: 'a' }], ['nope'])).to.throw(/unknown plugin\(s\): nope/);
  });

  it('refuses a bad config value, naming the key and the problem', () => {
    expect(() => loadConfig({}, { NODE_ENV: 'test', PORT: 'eighty' })).to.throw(/port: Port must be an integer/);
    expect(() => loadConfig({}, { NODE_ENV: 'test', DATABASE_URL: 'mysql://x' })).to.throw(/databaseUrl/);
    expect(() => loadConfig({ logLevel: 'loud' }, { NODE_ENV: 'test' })).to.throw(/logLevel: Log level must be one of/);
    expect(() => loadConfig({}, { NODE_ENV: 'test', HEAP_GROWING_PERCENT: 'some' })).to.throw(/heapGrowingPercent/);
  });

  it('reads HEAP_GROWING_PERCENT from the environment; 30 by default, 0 leaves the heap to V8', () => {
    expect(loadConfig({}, { NODE_ENV: 'production' }).heapGrowingPercent).to.equal(30);
    expect(loadConfig({}, { NODE_ENV: 'production', HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).to.equal(0);
    expect(loadConfig({}, { NODE_ENV: 'production', HEAP_GROWING_PERCENT: '50' }).heapGrowingPercent).to.equal(50);
  });

  it('reads PLUGINS_DISABLED from the environment', () => {
    const c = loadConfig({}, { NODE_ENV: 'test', PLUGINS_DISABLED: 'groups, badges' });
    expect(c.plugins.disabled).to.deep.equal(['groups', 'badges']);
  });

  describe('a disabled plugin', () => {
    let app: Awaited<ReturnType<typeof startTestApp>>;
    before(async () => {
      app = await startTestApp({ plugins: { disabled: ['admin', 'badges'], config: {} } });
    });
    after(async () => app?.close());

    it('is absent from /api/config so the web app hides its pages and nav', async () => {
      const r = await app.client().get('/api/config');
      expect(r.status).to.equal(200);
      expect(r.body.plugins).to.include('accounts');
      expect(r.body.plugins).to.not.include('admin');
      expect(r.body.plugins).to.not.include('badges');
    });

    it('answers 404 on its API paths while its tables stay migrated', async () => {
      const routes = app.routes.filter((r) => r.plugin === 'admin');
      for (const r of routes) {
        const res = await app.client().req(r.method, r.path.replace(/:(\w+)/g, '1'), r.method === 'GET' ? undefined : {});
        expect(res.status, `${r.method} ${r.path}`).to.equal(404);
      }
      const tables = await app.knex('information_schema.tables').where('table_schema', 'public').pluck('table_name');
      for (const p of app.plugins.filter((x) => !x.enabled)) {
        const dir = path.join(p.dir, 'server', 'migrations');
        const has = fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.ts'));
        if (has) expect(tables, p.manifest.id).to.include(`knex_migrations_${p.manifest.id}`);
      }
    });

    it('is missing from the OpenAPI document', async () => {
      const r = await app.client().get('/api/openapi.json');
      const tags = new Set(Object.values(r.body.paths).flatMap((p: any) => Object.values(p).map((o: any) => o.tags[0])));
      expect(tags.has('admin')).to.equal(false);
      expect(tags.has('accounts')).to.equal(true);
    });
  });
});
