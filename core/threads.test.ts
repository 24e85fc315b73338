import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { sampleUserIds } from './seed.ts';
import { adminUrl, sharedApp, waitFor, type TestApp } from './testing/index.ts';
import { addComment, commentTree, deleteComments, removeUserLikes, seedThread, toggleLike, type CommentRow, type ThreadTables } from './threads.ts';

/**
 * The thread helpers communities and groups share, on tables of their own (the plugins' API tests
 * cover the routes): counters under concurrency, reply threading, cascades, seeds.
 */
describe('discussion threads (core/threads.ts)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let knex: Knex;
  const p = `threads_test_${crypto.randomBytes(4).toString('hex')}`;
  const t: ThreadTables = { posts: `${p}_posts`, likes: `${p}_likes`, comments: `${p}_comments` };

  before(async () => {
    app = await sharedApp();
    knex = app.knex;
    await knex.schema.createTable(t.posts, (x) => {
      x.increments('id');
      x.integer('user_id').notNullable();
      x.integer('likes_count').notNullable().defaultTo(0);
      x.integer('comments_count').notNullable().defaultTo(0);
    });
    await knex.schema.createTable(t.likes, (x) => {
      x.integer('post_id').notNullable().references('id').inTable(t.posts).onDelete('CASCADE');
      x.integer('user_id').notNullable();
      x.unique(['post_id', 'user_id']);
    });
    await knex.schema.createTable(t.comments, (x) => {
      x.increments('id');
      x.integer('post_id').notNullable().references('id').inTable(t.posts).onDelete('CASCADE');
      x.integer('user_id').notNullable();
      x.integer('parent_id').nullable().references('id').inTable(t.comments).onDelete('CASCADE');
      x.text('content').notNullable();
      x.text('extra').nullable();
      x.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  });

  after(async () => {
    if (!knex) return;
    await knex.schema.dropTableIfExists(t.comments);
    await knex.schema.dropTableIfExists(t.likes);
    await knex.schema.dropTableIfExists(t.posts);
  });

  async function newPost(userId = 1): Promise<{ id: number; user_id: number }> {
    const [row] = await knex(t.posts).insert({ user_id: userId }).returning(['id', 'user_id']);
    return row;
  }
  const counters = async (id: number) => knex(t.posts).where({ id }).first('likes_count', 'comments_count');
  const likeRows = async (id: number) => Number((await knex(t.likes).where({ post_id: id }).count({ n: '*' }))[0].n);

  it('toggles a like and answers the count', async () => {
    const post = await newPost();
    expect(await toggleLike(knex, t, post.id, 10)).to.deep.equal({ liked: true, likesCount: 1 });
    expect(await toggleLike(knex, t, post.id, 11)).to.deep.equal({ liked: true, likesCount: 2 });
    expect(await toggleLike(knex, t, post.id, 10)).to.deep.equal({ liked: false, likesCount: 1 });
    expect(await likeRows(post.id)).to.equal(1);
  });

  it('keeps likes_count equal to the likes under concurrent toggles', async () => {
    const post = await newPost();
    // 12 users like at once; then one user toggles 7 times at once (odd: the like ends present or absent, the count follows)
    await Promise.all(Array.from({ length: 12 }, (_, i) => toggleLike(knex, t, post.id, 100 + i)));
    expect((await counters(post.id)).likes_count).to.equal(12);
    const answers = await Promise.all(Array.from({ length: 7 }, () => toggleLike(knex, t, post.id, 100)));
    for (const a of answers) expect(a.likesCount).to.be.within(11, 12);
    const rows = await likeRows(post.id);
    expect((await counters(post.id)).likes_count).to.equal(rows);
  });

  it('answers concurrent toggles of one member as some order of them (a double click cancels out)', async () => {
    for (const n of [2, 3, 10]) {
      const post = await newPost();
      for (let round = 0; round < 3; round++) {
        const before = (await knex(t.likes).where({ post_id: post.id, user_id: 7 }).first()) !== undefined;
        const answers = await Promise.all(Array.from({ length: n }, () => toggleLike(knex, t, post.id, 7)));
        // in some order, n toggles from off answer true, false, true…; from on false, true, false…
        const on = answers.filter((a) => a.liked).length;
        expect(on - (n - on), `${n} toggles from ${before ? 'on' : 'off'}: ${answers.map((a) => a.liked).join(', ')}`).to.equal(before ? -(n % 2) : n % 2);
        const after = n % 2 === 1 ? !before : before;
        expect(await likeRows(post.id)).to.equal(after ? 1 : 0);
        expect((await counters(post.id)).likes_count).to.equal(after ? 1 : 0);
      }
    }
  });

  it('adds comments and replies one level deep, with recipients and an exact count', async () => {
    const post = await newPost(1);
    const c1 = await addComment(knex, t, post, { userId: 2, content: '  First  ', columns: { extra: 'x' } });
    expect(c1).to.deep.include({ parentId: null, recipients: [1] });
    expect(c1.row).to.include({ content: 'First', extra: 'x', parent_id: null, post_id: post.id });
    const r1 = await addComment(knex, t, post, { userId: 3, content: 'Reply', parentId: c1.row.id });
    expect(r1.parentId).to.equal(c1.row.id);
    expect(r1.recipients).to.have.members([1, 2]);
    // a reply to a reply joins the first comment's thread; the author of the post is not told of their own reply
    const r2 = await addComment(knex, t, post, { userId: 1, content: 'Again', parentId: r1.row.id });
    expect(r2.parentId).to.equal(c1.row.id);
    expect(r2.recipients).to.deep.equal([3]);
    expect((await addComment(knex, t, post, { userId: 1, content: 'Mine', parentId: null })).recipients).to.deep.equal([]);
    expect((await counters(post.id)).comments_count).to.equal(4);
  });

  it('refuses a parent of another post or a missing one with 404, counting nothing', async () => {
    const post = await newPost();
    const other = await newPost();
    const c = await addComment(knex, t, other, { userId: 2, content: 'elsewhere' });
    for (const parentId of [c.row.id, 2147483000]) {
      const err = await addComment(knex, t, post, { userId: 2, content: 'x', parentId }).catch((e) => e);
      expect(err).to.include({ status: 404, message: 'Comment not found' });
    }
    expect((await counters(post.id)).comments_count).to.equal(0);
  });

  it('keeps comments_count exact under concurrent comments', async () => {
    const post = await newPost();
    const first = await addComment(knex, t, post, { userId: 2, content: 'root' });
    await Promise.all(Array.from({ length: 15 }, (_, i) => addComment(knex, t, post, { userId: 3 + i, content: `c${i}`, parentId: i % 2 ? first.row.id : null })));
    expect((await counters(post.id)).comments_count).to.equal(16);
  });

  it('builds the tree: top-level comments with their replies, canDelete per comment', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const rows: CommentRow[] = [
      { id: 1, post_id: 9, user_id: 5, parent_id: null, content: 'a @five', mentions: [{ userId: 5, username: 'five', start: 2, length: 5 }], created_at: at },
      { id: 2, post_id: 9, user_id: 6, parent_id: 1, content: 'b', created_at: at },
      { id: 3, post_id: 9, user_id: 6, parent_id: null, content: 'c', created_at: at.toISOString() },
      { id: 4, post_id: 9, user_id: 7, parent_id: 99, content: 'orphan', created_at: at },
    ];
    const users = new Map([[5, { name: 'five' }]]);
    const tree = commentTree(rows, users, (r) => r.user_id === 6);
    expect(tree).to.deep.equal([
      {
        id: 1,
        postId: 9,
        parentId: null,
        content: 'a @five',
        mentions: [{ userId: 5, username: 'five', start: 2, length: 5 }],
        createdAt: '2026-01-02T03:04:05.000Z',
        user: { name: 'five' },
        canDelete: false,
        // rows without stored mentions (or a plugin without the column) answer an empty list
        replies: [{ id: 2, postId: 9, parentId: 1, content: 'b', mentions: [], createdAt: '2026-01-02T03:04:05.000Z', user: null, canDelete: true }],
      },
      { id: 3, postId: 9, parentId: null, content: 'c', mentions: [], createdAt: '2026-01-02T03:04:05.000Z', user: null, canDelete: true, replies: [] },
    ]);
  });

  it('deletes comments with their replies and lowers each post’s count by what went', async () => {
    const a = await newPost();
    const b = await newPost();
    const a1 = await addComment(knex, t, a, { userId: 2, content: 'a1' });
    await addComment(knex, t, a, { userId: 3, content: 'a1r', parentId: a1.row.id });
    const a2 = await addComment(knex, t, a, { userId: 3, content: 'a2' });
    const b1 = await addComment(knex, t, b, { userId: 2, content: 'b1' });
    const b1r = await addComment(knex, t, b, { userId: 3, content: 'b1r', parentId: b1.row.id });
    expect(await deleteComments(knex, t, [])).to.equal(0);
    // a thread (its reply goes too), a lone reply, and an id that is gone
    expect(await deleteComments(knex, t, [a1.row.id, b1r.row.id, 2147483000])).to.equal(3);
    expect((await counters(a.id)).comments_count).to.equal(1);
    expect((await counters(b.id)).comments_count).to.equal(1);
    expect(await knex(t.comments).whereIn('post_id', [a.id, b.id]).orderBy('id').pluck('id')).to.deep.equal([a2.row.id, b1.row.id]);
    expect(await deleteComments(knex, t, [a1.row.id])).to.equal(0);
  });

  it('counts a thread once when it is deleted several times at once', async () => {
    const post = await newPost();
    const keep = await addComment(knex, t, post, { userId: 2, content: 'keep' });
    for (let round = 0; round < 3; round++) {
      const c = await addComment(knex, t, post, { userId: 2, content: `c${round}` });
      await addComment(knex, t, post, { userId: 3, content: 'r1', parentId: c.row.id });
      await addComment(knex, t, post, { userId: 4, content: 'r2', parentId: c.row.id });
      const went = await Promise.all(Array.from({ length: 4 }, () => deleteComments(knex, t, [c.row.id])));
      expect(went.reduce((a, b) => a + b, 0)).to.equal(3);
      expect((await counters(post.id)).comments_count).to.equal(1);
    }
    expect(await knex(t.comments).where({ post_id: post.id }).pluck('id')).to.deep.equal([keep.row.id]);
  });

  it('counts a reply that was being added when its thread was deleted', async function () {
    // needs two connections at once: PostgreSQL only (the embedded database has one)
    if (!adminUrl()) this.skip();
    const post = await newPost();
    const c = await addComment(knex, t, post, { userId: 2, content: 'thread' });
    // a reply in flight: inserted, counter not yet raised, not committed
    const inFlight = await knex.transaction();
    let deletion: Promise<number> | null = null;
    try {
      await inFlight(t.comments).insert({ post_id: post.id, user_id: 3, parent_id: c.row.id, content: 'late' });
      deletion = deleteComments(knex, t, [c.row.id]);
      // the deletion waits for the reply's transaction (its parent is held by the reply's foreign key)
      await waitFor(async () => {
        const r = await knex.raw(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like ? and pid <> pg_backend_pid()`, [`%${t.comments}%`]);
        return r.rows.length > 0;
      }, { timeout: 20_000 });
      await inFlight(t.posts).where({ id: post.id }).increment('comments_count', 1);
      await inFlight.commit();
    } catch (e) {
      await inFlight.rollback().catch(() => {});
      throw e;
    }
    expect(await deletion).to.equal(2);
    expect(await knex(t.comments).where({ post_id: post.id }).pluck('id')).to.deep.equal([]);
    expect((await counters(post.id)).comments_count).to.equal(0);
  });

  it('removes every like of a user, lowering only the posts they liked', async () => {
    const a = await newPost();
    const b = await newPost();
    const c = await newPost();
    await toggleLike(knex, t, a.id, 50);
    await toggleLike(knex, t, a.id, 51);
    await toggleLike(knex, t, b.id, 50);
    await toggleLike(knex, t, c.id, 51);
    await knex.transaction((trx) => removeUserLikes(trx, t, 50));
    await knex.transaction((trx) => removeUserLikes(trx, t, 52));
    expect((await counters(a.id)).likes_count).to.equal(1);
    expect((await counters(b.id)).likes_count).to.equal(0);
    expect((await counters(c.id)).likes_count).to.equal(1);
    expect(await knex(t.likes).where({ user_id: 50 }).pluck('post_id')).to.deep.equal([]);
  });

  it('seeds a thread: likes of listed members only, authors wrapping around, counters set', async () => {
    const post = await newPost();
    await knex.transaction((trx) =>
      seedThread(trx, t, {
        postId: post.id,
        members: [70, 71, 72],
        likes: [0, 2, 2, 5],
        comments: [{ author: 1, content: 'one', replies: [{ author: 4, content: 'one-r' }] }, { author: 3, content: 'two' }],
        columns: { extra: 'seeded' },
      }),
    );
    expect(await knex(t.likes).where({ post_id: post.id }).orderBy('user_id').pluck('user_id')).to.deep.equal([70, 72]);
    const rows = await knex(t.comments).where({ post_id: post.id }).orderBy('id').select('user_id', 'content', 'parent_id', 'extra');
    expect(rows.map((r) => [r.user_id, r.content, r.extra])).to.deep.equal([
      [71, 'one', 'seeded'],
      [71, 'one-r', 'seeded'],
      [70, 'two', 'seeded'],
    ]);
    expect(rows[1].parent_id).to.be.a('number');
    expect(await counters(post.id)).to.deep.equal({ likes_count: 2, comments_count: 3 });
    const bare = await newPost();
    await knex.transaction((trx) => seedThread(trx, t, { postId: bare.id, members: [70] }));
    expect(await counters(bare.id)).to.deep.equal({ likes_count: 0, comments_count: 0 });
  });

  it('picks sample users: preferred usernames that exist, then the lowest existing ids', async () => {
    const { AccountsService } = await import('../plugins/accounts/public.ts');
    const accounts = app.services.get(AccountsService);
    const u1 = await app.user();
    const u2 = await app.user();
    await app.user();
    expect(await sampleUserIds(accounts, [u2.me.username, 'no_such_user_here', u1.me.username, u2.me.username], 2)).to.deep.equal([u2.me.id, u1.me.id]);
    const filled = await sampleUserIds(accounts, ['no_such_user_here', u2.me.username], 3);
    expect(filled).to.have.length(3);
    expect(filled[0]).to.equal(u2.me.id);
    expect(new Set(filled).size).to.equal(3);
    const rest = filled.slice(1);
    expect(rest).to.deep.equal([...rest].sort((a, b) => a - b));
    expect((await accounts.getUserSummaries(rest)).size).to.equal(2);
    expect(await sampleUserIds(accounts, [], 0)).to.deep.equal([]);
  });
});
