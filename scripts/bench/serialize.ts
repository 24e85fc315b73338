/**
 * npm run bench:serialize — what compiled serializers (core/serialize.ts) save per answer: real
 * answers of hot routes (20 insights, a museum's insights with comments and replies, a museum
 * page, the signed-in member), taken from a test app, written N times by each path of core/routes.ts's
 * answerText: the compiled serializer, and the allow-list path (JSON copy + ajv) it replaces.
 * Prints µs per answer and the ratio, both measured in this one process, one after the other
 * (alternating rounds), so a busy machine moves both alike. Needs DATABASE_URL or uses PGlite.
 */
import { performance } from 'node:perf_hooks';
import { startTestApp } from '../../core/testing/index.ts';
import { answerText } from '../../core/routes.ts';
import { compileSerializer } from '../../core/serialize.ts';
import { responseSchemaFor } from '../../core/routes.ts';
import { MuseumsService } from '../../plugins/museums/public.ts';

const N = Number(process.argv[process.argv.indexOf('--n') + 1]) || 3000;

async function main() {
  const app = await startTestApp();
  try {
    const a = await app.user();
    const b = await app.user();
    await a.post(`/api/users/${b.me.id}/follow`);
    const museums: Array<{ id: number; slug: string }> = [];
    for (let i = 0; i < 3; i++) {
      museums.push(await app.services.get(MuseumsService).createMuseum({ name: `Museum of light ${i} ${Date.now()}`, address: '1 Main St', city: 'Paris', country: 'France', latitude: 48.86, longitude: 2.33, timezone: 'Europe/Paris' } as any, null));
    }
    for (let i = 0; i < 20; i++) {
      const p = await b.post('/api/posts', { type: 'text', content: `Insight ${i}: the light in the modern gallery, quiet in the morning`, tags: ['light', 'morning'], museumId: museums[i % museums.length].id });
      for (let j = 0; j < 2; j++) {
        const c = await a.post(`/api/posts/${p.body.id}/comments`, { content: `Comment ${j} on ${i}` });
        await b.post(`/api/posts/${p.body.id}/comments`, { content: `Reply to ${j}`, parentId: c.body.id });
      }
      if (i % 2) await a.post(`/api/posts/${p.body.id}/like`);
    }
    await app.events.settled();
    const cases: Array<{ label: string; method: string; path: string; url: string; c: typeof a }> = [
      { label: 'insights, 20 (GET /api/posts)', method: 'GET', path: '/api/posts', url: '/api/posts?limit=20', c: a },
      { label: 'museum insights (GET /api/posts/museum/:museumId)', method: 'GET', path: '/api/posts/museum/:museumId', url: `/api/posts/museum/${museums[0].id}?limit=20`, c: a },
      { label: 'museum page (GET /api/museums/slug/:slug)', method: 'GET', path: '/api/museums/slug/:slug', url: `/api/museums/slug/${museums[0].slug}`, c: a },
      { label: 'the signed-in member (GET /api/auth/user)', method: 'GET', path: '/api/auth/user', url: '/api/auth/user', c: a },
    ];
    console.log(`\nCompiled serializers vs the allow-list path, ${N} answers each (load average ${(await import('node:os')).loadavg()[0].toFixed(1)})\n`);
    console.log('  answer                                             bytes   allow-list µs   compiled µs   ratio');
    for (const k of cases) {
      const def = app.routes.find((r) => r.method === k.method && r.path === k.path)!;
      const schema = responseSchemaFor(def, def.status ?? 200)!;
      const got = await k.c.get(k.url);
      if (got.status !== 200) throw new Error(`${k.url}: ${got.status} ${got.text.slice(0, 200)}`);
      const body = got.body;
      const validate = app.schemas.compile('output', schema);
      const compiled = compileSerializer(app.schemas, schema);
      if (!compiled.serialize) {
        console.log(`  ${k.label}: not compiled (${compiled.reason})`);
        continue;
      }
      const fast = { validate, schema, ...compiled };
      const slow = { validate, schema, serialize: null, reason: 'compared' };
      const time = (resp: any) => {
        const t = performance.now();
        for (let i = 0; i < N; i++) answerText(app.schemas, def, resp, body, false);
        return ((performance.now() - t) * 1000) / N;
      };
      let tSlow = 0;
      let tFast = 0;
      for (let round = 0; round < 4; round++) {
        tSlow += time(slow);
        tFast += time(fast);
      }
      const bytes = answerText(app.schemas, def, fast as any, body, false).length;
      console.log(`  ${k.label.padEnd(50)} ${String(bytes).padStart(6)}   ${(tSlow / 4).toFixed(1).padStart(13)}   ${(tFast / 4).toFixed(1).padStart(11)}   ${(tSlow / tFast).toFixed(1)}×`);
    }
  } finally {
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
