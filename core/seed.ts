import cliProgress from 'cli-progress';
import type { Knex } from 'knex';
import type { PluginContext, PluginServer, SeedProgress } from './plugin-api.ts';

export interface SeedTarget {
  id: string;
  server: PluginServer;
  ctx: PluginContext;
}

function barProgress(multi: cliProgress.MultiBar | null, log: (m: string) => void): SeedProgress {
  let bar: cliProgress.SingleBar | null = null;
  let done = 0;
  let total = 0;
  let label = '';
  return {
    start(t, l) {
      total = t;
      label = l;
      done = 0;
      if (multi) bar = multi.create(t, 0, { label: l });
      else log(`seeding ${l} (${t})`);
    },
    tick(n = 1) {
      done += n;
      bar?.update(done, { label });
      if (!bar && total && done === total) log(`seeded ${label}`);
    },
  };
}

/**
 * Runs each enabled plugin's seed (idempotent: a second run adds nothing).
 * `onlyFirstTime` skips plugins already seeded once (the app's first start).
 */
export async function runSeeds(knex: Knex, targets: SeedTarget[], opts: { onlyFirstTime: boolean; bar: boolean; log: (m: string) => void }): Promise<string[]> {
  const seeded: string[] = [];
  const multi = opts.bar
    ? new cliProgress.MultiBar({ format: ' {label} |{bar}| {value}/{total}', hideCursor: true, clearOnComplete: false, stopOnComplete: true }, cliProgress.Presets.shades_classic)
    : null;
  try {
    for (const t of targets) {
      if (!t.server.seed) continue;
      const key = `seeded:${t.id}`;
      if (opts.onlyFirstTime && (await knex('core_meta').where({ key }).first())) continue;
      await t.server.seed(t.ctx, barProgress(multi, opts.log));
      await knex('core_meta')
        .insert({ key, value: JSON.stringify({ at: new Date().toISOString() }) })
        .onConflict('key')
        .merge();
      seeded.push(t.id);
    }
  } finally {
    multi?.stop();
  }
  return seeded;
}

/** What `sampleUserIds` needs of the accounts plugin's service (AccountsApi fits it). */
export interface SampleUserSource {
  findUser(key: string): Promise<{ id: number } | null>;
  getUserSummaries(ids: number[]): Promise<Map<number, unknown>>;
}

/**
 * Real users for sample data: the preferred usernames that exist, in order, then the lowest ids
 * that exist until there are `want` (the samples also load on a database with other members).
 */
export async function sampleUserIds(users: SampleUserSource, preferred: string[], want: number): Promise<number[]> {
  const ids: number[] = [];
  for (const name of preferred) {
    const u = await users.findUser(name);
    if (u && !ids.includes(u.id)) ids.push(u.id);
  }
  if (ids.length < want) {
    const found = await users.getUserSummaries(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const id of [...found.keys()].sort((a, b) => a - b)) {
      if (ids.length >= want) break;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}
