/**
 * Authorization matrix (issue 10): every registered route × every role × own/other's object,
 * against the one table in core/quality/authz/. Built through the real HTTP API on an app of its
 * own (admin probes delete users and museums).
 *
 * AUTHZ_RECORD=1 prints what each cell answered instead of failing: the quick way to draft the
 * row of a new route (then read the plugin and write the expectation the product should have).
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../testing/index.ts';
import { buildWorld, ROLES, type World, type Role } from './fixtures/world.ts';
import { startExternalStub, type ExternalStub } from './fixtures/external-stub.ts';
import { AUTHZ_TABLE } from './authz/index.ts';
import { buildPath, expectationFor, isSuccess, matches, type AuthzRow, type Expect, type Obj } from './authz/types.ts';

const RECORD = process.env.AUTHZ_RECORD === '1';

interface Cell {
  as: Role;
  obj: Obj | null;
  expect: Expect | undefined;
}

function cellsOf(row: AuthzRow): Cell[] {
  const out: Cell[] = [];
  for (const as of ROLES) {
    for (const obj of row.objects ?? [null]) {
      if (obj === 'own' && as === 'anon') continue; // a visitor owns nothing
      out.push({ as, obj, expect: expectationFor(row, as, obj) });
    }
  }
  // Refusals first, then the probes that succeed (and may change what later probes see).
  return out.sort((a, b) => Number(a.expect !== undefined && isSuccess(a.expect)) - Number(b.expect !== undefined && isSuccess(b.expect)));
}

async function probe(w: World, row: AuthzRow, cell: Cell): Promise<{ status: number; text: string } | null> {
  const client = w.c[cell.as];
  const req = row.req ? await row.req({ w, as: cell.as, obj: cell.obj, client }) : {};
  if (req === null) return null;
  const method = row.route.split(' ')[0];
  const path = buildPath(row.route, req);
  const c = req.client ?? client;
  const r = req.files ? await c.upload(path, req.files, req.fields ?? {}, method) : await c.req(method, path, req.body);
  return { status: r.status, text: r.text };
}

describe('quality: authorization matrix', function () {
  this.timeout(600_000);
  let app: TestApp;
  let w: World;
  let stub: ExternalStub;
  const rows = Object.entries(AUTHZ_TABLE).flatMap(([plugin, list]) => list.map((r) => ({ plugin, row: r })));

  before(async () => {
    stub = await startExternalStub();
    app = await startTestApp(stub.overrides());
    w = await buildWorld(app);
  });
  after(async () => {
    await app?.close();
    await stub?.close();
  });

  it('has exactly one row for every registered route, and no row for a route that does not exist', () => {
    const registered = app.routes.filter((r) => app.enabled.has(r.plugin)).map((r) => `${r.method} ${r.path}`);
    const tabled = rows.map((r) => r.row.route);
    const dup = tabled.filter((r, i) => tabled.indexOf(r) !== i);
    expect(dup, 'routes with two rows').to.deep.equal([]);
    expect(registered.filter((r) => !tabled.includes(r)), 'routes without a row in core/quality/authz/<plugin>.ts').to.deep.equal([]);
    expect(tabled.filter((r) => !registered.includes(r)), 'rows for routes that are not registered').to.deep.equal([]);
    // rows sit in their owner's file
    for (const { plugin, row } of rows) {
      const def = app.routes.find((r) => `${r.method} ${r.path}` === row.route);
      expect(def?.plugin, `${row.route} is in authz/${plugin}.ts`).to.equal(plugin);
    }
  });

  it('has an expectation for every route × role × object', () => {
    const missing: string[] = [];
    for (const { row } of rows) for (const c of cellsOf(row)) if (c.expect === undefined) missing.push(`${row.route} as ${c.as}${c.obj ? `:${c.obj}` : ''}`);
    expect(missing).to.deep.equal([]);
  });

  for (const { plugin, row } of rows) {
    it(`${row.route}  [${plugin}]`, async () => {
      const failures: string[] = [];
      const seen: string[] = [];
      for (const cell of cellsOf(row)) {
        if (cell.expect === 'n/a') continue;
        const r = await probe(w, row, cell);
        const label = `${cell.as}${cell.obj ? `:${cell.obj}` : ''}`;
        if (r === null) {
          failures.push(`${label}: the row builds no request but expects ${cell.expect}`);
          continue;
        }
        seen.push(`${label}=${r.status}`);
        if (r.status >= 500) failures.push(`${label}: ${r.status} ${r.text.slice(0, 300)}`);
        else if (cell.expect !== undefined && !matches(cell.expect, r.status)) failures.push(`${label}: expected ${cell.expect}, got ${r.status} ${r.text.slice(0, 200)}`);
      }
      if (RECORD) {
        console.log(`    ${row.route}: ${seen.join(' ')}`);
        return;
      }
      expect(failures, `${row.route}\n      ${failures.join('\n      ')}`).to.deep.equal([]);
    });
  }
});
