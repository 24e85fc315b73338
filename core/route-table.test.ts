/**
 * The grouped route table (core/routes.ts RouteTable, issue 18) answers exactly as one @koa/router
 * holding every route: the same route, status, Allow header and body for every registered path
 * (parameters filled with a number and with a word), odd paths (case, trailing slash, unknown
 * groups) and every method (405, 501 and OPTIONS included). Real servers, real HTTP.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { expect } from 'chai';
import { createApp } from './app.ts';
import { compareSpecificity, groupOf, RouteTable } from './routes.ts';

describe('the grouped route table', function () {
  this.timeout(120_000);
  const servers: http.Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  const serve = (use: (k: Koa) => void) => {
    const k = new Koa();
    use(k);
    const s = http.createServer(k.callback());
    servers.push(s);
    return new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
  };

  it('answers every path and method as one router holding every route would', async () => {
    const app = await createApp({ describeOnly: true });
    const sorted = [...app.routes].sort((a, b) => compareSpecificity(a.path, b.path));
    const one = new Router();
    const groups = new Map<string, Router>();
    for (const d of sorted) {
      const m = d.method.toLowerCase() as 'get';
      const h = (ctx: Koa.Context) => {
        ctx.body = `${d.method} ${d.path}`;
      };
      one[m](d.path, h);
      const k = groupOf(d.path.toLowerCase());
      if (!groups.has(k)) groups.set(k, new Router());
      groups.get(k)![m](d.path, h);
    }
    expect(groups.size).to.be.greaterThan(20);
    const table = new RouteTable(groups);
    const [a, b] = await Promise.all([
      serve((k) => {
        k.use(one.routes());
        k.use(one.allowedMethods({ throw: false }));
      }),
      serve((k) => {
        k.use(table.routes());
        k.use(table.allowedMethods({ throw: false }));
      }),
    ]);
    const paths = new Set<string>(['/api', '/api/', '/API/POSTS', '/api/posts/', '/nothing', '/api/nothing/here', '/robots.txt', '/ROBOTS.TXT', '//api/posts']);
    for (const d of sorted) for (const v of ['12', 'abc']) paths.add(d.path.replace(/:[a-zA-Z]+(\([^)]*\))?/g, v));
    const differences: string[] = [];
    let matched = 0;
    for (const p of paths) {
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND']) {
        const [x, y] = await Promise.all(
          [a, b].map(async (base) => {
            const r = await fetch(base + p, { method: m });
            return `${r.status} ${r.headers.get('allow') ?? ''} ${m === 'HEAD' ? '' : await r.text()}`;
          }),
        );
        if (x.startsWith('200')) matched++;
        if (x !== y) differences.push(`${m} ${p}: one router "${x}", grouped "${y}"`);
      }
    }
    expect(differences).to.deep.equal([]);
    expect(matched, 'the paths reach their routes').to.be.greaterThan(sorted.length);
  });

  it('refuses a route whose first segment is a parameter (its group would be unknown)', () => {
    expect(() => new RouteTable(new Map([[':id', new Router()]]))).to.throw(/first segment must be fixed/);
  });
});
