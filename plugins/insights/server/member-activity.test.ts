/**
 * Issue 18: each member's activity of 30 days (people suggestions' ranking) is kept by the database
 * as posts, comments and likes are written (migration 20261207000300), instead of being summed from
 * every row of the month on each request. These tests hold the kept sums to a recount from the rows
 * after every kind of write, after the window moves, and with both at once over many connections.
 */
import { expect } from 'chai';
import { startTestApp, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MEMBER_ACTIVITY_WINDOW_JOB } from './index.ts';
import { textPost } from './test-helpers.ts';

/** What the kept sums should be: every row after the window's start, counted from scratch. */
const RECOUNT = `select user_id, sum(w)::int as score, sum(p)::int as posts from (
    select user_id, 3 as w, 1 as p from insights_posts, insights_member_activity_window win where created_at > win.counted_after
    union all select user_id, 2, 0 from insights_comments, insights_member_activity_window win where user_id is not null and created_at > win.counted_after
    union all select user_id, 1, 0 from insights_likes, insights_member_activity_window win where created_at > win.counted_after
  ) x group by user_id`;

async function recount(app: TestApp): Promise<Map<number, string>> {
  const r = await app.knex.raw(RECOUNT);
  return new Map((r.rows as any[]).map((x) => [Number(x.user_id), `${x.score}/${x.posts}`]));
}

/** The kept sums, members at zero left out (the window's move drops them). */
async function kept(app: TestApp): Promise<Map<number, string>> {
  const rows = await app.knex('insights_member_activity').where('score', '<>', 0).orWhere('posts', '<>', 0).select('user_id', 'score', 'posts');
  return new Map(rows.map((x: any) => [Number(x.user_id), `${x.score}/${x.posts}`]));
}

async function expectExact(app: TestApp, what: string) {
  const want = await recount(app);
  const have = await kept(app);
  expect([...have.entries()].sort(), what).to.deep.equal([...want.entries()].sort());
}

/** A window of 40 days, as if the job had last run 10 days ago, with its sums recounted for it. */
async function widenWindow(app: TestApp) {
  await app.knex.raw(`update insights_member_activity_window set counted_after = now() - interval '40 days'`);
  await app.knex('insights_member_activity').del();
  await app.knex.raw(`insert into insights_member_activity (user_id, score, posts) select user_id, score, posts from (${RECOUNT}) r`);
}

const windowMoved = async (app: TestApp) => {
  const r = await app.knex.raw(`select counted_after > now() - interval '30 days' - interval '1 minute' as moved from insights_member_activity_window`);
  return Boolean(r.rows[0].moved);
};

/**
 * Runs the window's job now and resolves when the window has moved (this process's poller may
 * claim the occurrence before runDue does: either runs the same handler).
 */
async function moveWindow(app: TestApp) {
  await app.jobs.reschedule(`repeat:${MEMBER_ACTIVITY_WINDOW_JOB}`, new Date(Date.now() - 1000));
  await app.jobs.runDue({ only: [MEMBER_ACTIVITY_WINDOW_JOB] });
  for (let i = 0; i < 400 && !(await windowMoved(app)); i++) await new Promise((r) => setTimeout(r, 25));
  expect(await windowMoved(app), 'the window starts 30 days ago').to.equal(true);
}

const of = async (app: TestApp, c: SignedInClient) => (await kept(app)).get(c.me.id) ?? '0/0';

describe('insights: members\' activity of 30 days, kept as it happens (issue 18)', function () {
  this.timeout(120000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  it('counts insights, comments and likes as they are written and taken back, as a recount would', async () => {
    const [author, fan] = [await app.user(), await app.user()];
    const p1 = await textPost(author, 'the first gallery');
    const p2 = await textPost(author, 'the second gallery');
    expect(await of(app, author)).to.equal('6/2');
    const comment = await fan.post(`/api/posts/${p1.id}/comments`, { content: 'lovely' });
    expect(comment.status).to.equal(201);
    expect((await fan.post(`/api/posts/${p1.id}/like`)).status).to.equal(200);
    expect((await fan.post(`/api/posts/${p2.id}/like`)).status).to.equal(200);
    expect(await of(app, fan)).to.equal('4/0');
    expect((await fan.post(`/api/posts/${p2.id}/like`)).body).to.include({ liked: false }); // unlike
    expect(await of(app, fan)).to.equal('3/0');
    // the post goes, and the comment and like on it with it
    expect((await author.del(`/api/posts/${p1.id}`)).status).to.equal(200);
    expect(await of(app, author)).to.equal('3/1');
    expect(await of(app, fan)).to.equal('0/0');
    const again = await fan.post(`/api/posts/${p2.id}/comments`, { content: 'and this one' });
    expect((await fan.del(`/api/comments/${again.body.id}`)).status).to.equal(200);
    expect(await of(app, fan)).to.equal('0/0');
    await expectExact(app, 'after posts, comments, likes and their removal');
  });

  it('moves a row\'s count when its author or its time changes: an anonymised comment, a back-dated insight', async () => {
    const [author, fan] = [await app.user(), await app.user()];
    const post = await textPost(author, 'a hall of maps');
    const c = await fan.post(`/api/posts/${post.id}/comments`, { content: 'maps!' });
    await app.knex('insights_comments').where({ id: c.body.id }).update({ user_id: null, content: '' }); // as a deleted member's answered comment
    expect(await of(app, fan)).to.equal('0/0');
    await app.knex('insights_posts').where({ id: post.id }).update({ created_at: app.knex.raw(`now() - interval '40 days'`) });
    expect(await of(app, author)).to.equal('0/0');
    await app.knex('insights_posts').where({ id: post.id }).update({ created_at: app.knex.raw(`now() - interval '2 days'`) });
    expect(await of(app, author)).to.equal('3/1');
    await app.knex('insights_comments').where({ id: c.body.id }).update({ user_id: author.me.id });
    expect(await of(app, author)).to.equal('5/1');
    await expectExact(app, 'after the moves');
  });

  it('the window\'s job takes away what left the 30 days, once, while members like, unlike and delete beside it', async () => {
    await widenWindow(app);
    const author = await app.user();
    const likers = await Promise.all(Array.from({ length: 8 }, () => app.user()));
    const posts: any[] = [];
    for (let i = 0; i < 6; i++) posts.push(await textPost(author, `room ${i}`));
    // likes 35 days old (in the wide window, out of the 30 days) and fresh ones
    await app.knex('insights_likes').insert(
      likers.flatMap((l, i) => posts.slice(0, 3).map((p) => ({ post_id: p.id, user_id: l.me.id, created_at: app.knex.raw(`now() - interval '35 days' - ${i} * interval '1 minute'`) }))),
    );
    await app.knex.raw(`update insights_posts p set likes_count = (select count(*) from insights_likes l where l.post_id = p.id) where p.user_id = ?`, [author.me.id]);
    for (const l of likers) expect(await of(app, l)).to.equal('3/0');
    await expectExact(app, 'old likes counted in the wide window');
    // at once: the job, old likes taken back (a row the move is about to take away), new likes
    const answers = await Promise.all([
      moveWindow(app),
      ...likers.map((l, i) => (i % 2 ? l.post(`/api/posts/${posts[i % 3].id}/like`) : app.knex('insights_likes').where({ user_id: l.me.id, post_id: posts[0].id }).del())),
      ...likers.map((l, i) => l.post(`/api/posts/${posts[3 + (i % 3)].id}/like`)),
    ]);
    for (const a of answers.slice(1)) if (typeof a === 'object' && a && 'status' in a) expect((a as any).status).to.equal(200);
    for (const l of likers) expect(await of(app, l), 'only the fresh like is left').to.equal('1/0');
    await expectExact(app, 'after the move beside concurrent writes');
    // nobody at zero is kept
    expect(await app.knex('insights_member_activity').where({ score: 0 }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
  });

  it('a row deleted in a transaction still open while the window moves past it is taken away once', async function () {
    if (!process.env.DATABASE_URL) this.skip(); // the open transaction holds the embedded database's only connection
    await widenWindow(app);
    const [author, fan] = [await app.user(), await app.user()];
    const post = await textPost(author, 'the last room');
    await app.knex('insights_likes').insert({ post_id: post.id, user_id: fan.me.id, created_at: app.knex.raw(`now() - interval '35 days'`) });
    await app.knex('insights_posts').where({ id: post.id }).update({ likes_count: 1 });
    expect(await of(app, fan)).to.equal('1/0');
    const trx = await app.knex.transaction();
    try {
      await trx('insights_likes').where({ post_id: post.id, user_id: fan.me.id }).del();
      let done = false;
      const moved = moveWindow(app).finally(() => {
        done = true;
      });
      // the move waits for the deleting transaction (on the writers' lock; without it, on the
      // member's row the delete changed, with the deleted row still in the move's snapshot)
      for (let i = 0; i < 400 && !done && !(await windowMoved(app)); i++) {
        const w = await app.knex.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (w.rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      await trx.commit();
      await moved;
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect(await of(app, fan), 'taken away once: by the delete, not again by the move').to.equal('0/0');
    await expectExact(app, 'after the move beside an open delete');
  });

  it('ranks active members from the kept sums: the most active first, with their insights of 30 days', async () => {
    const [busy, quiet, viewer] = [await app.user(), await app.user(), await app.user()];
    for (let i = 0; i < 4; i++) await textPost(busy, `busy ${i}`);
    await textPost(quiet, 'once');
    const r = await viewer.get('/api/users/active?limit=50');
    expect(r.status).to.equal(200);
    const at = (id: number) => (r.body as any[]).findIndex((u) => u.id === id);
    expect(r.body[at(busy.me.id)]).to.include({ recentInsightsCount: 4, activityScore: 12, reason: 'active' });
    expect(r.body[at(quiet.me.id)]).to.include({ recentInsightsCount: 1, activityScore: 3 });
    expect(at(busy.me.id)).to.be.lessThan(at(quiet.me.id));
    // six weeks later, nothing of it counts
    await app.knex('insights_posts').whereIn('user_id', [busy.me.id, quiet.me.id]).update({ created_at: app.knex.raw(`now() - interval '42 days'`) });
    const later = await viewer.get('/api/users/active?limit=50');
    for (const u of later.body as any[]) if (u.id === busy.me.id || u.id === quiet.me.id) expect(u).to.include({ activityScore: 0, recentInsightsCount: 0 });
  });
});
