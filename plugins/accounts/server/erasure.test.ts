/**
 * Deletion that deletes (issue 24): after a member's account is erased, no table holds their id,
 * name, email or words, except the rows listed in KEPT with the reason they stay, and no file they
 * uploaded remains in storage. The grace period: signing in cancels; the job erases at its end.
 */
import { expect } from 'chai';
import { startTestApp, waitFor, type TestApp } from '../../../core/testing/index.ts';
import { startTestS3, type TestS3 } from '../../../core/testing/s3.ts';
import { activeMember } from './data-fixture.ts';

/**
 * Columns that may still hold a deleted member's id or words, and why. `table.column`; anything
 * else found fails the test (a new table with a user column must erase it or be listed here).
 */
const KEPT: Record<string, string> = {
  'core_stream_events.user_id': 'live-update hints addressed to the member, kept a few minutes for reconnects (core/stream.ts), then purged',
  'core_jobs.unique_key': 'finished job rows (e.g. the sign-up confirmation email) name the member until the retention job purges job rows older than 14 days',
  // ids of jobs: the erase job's own row (its payload is the id being erased) stays as the record of
  // the deletion (purged with old job rows by the retention job)
  'core_jobs.payload': 'the erase job records which id it erased; old job rows are purged after 30 days',
  'core_jobs.result': 'the erase job logs its result (the id erased and what ran)',
  'core_job_keys.key': 'once-keys name jobs, not people (e.g. mail:accounts.verify:<token id>); purged 30 days after their job ended (core.jobs.purge)',
  // the admin audit log keeps its entries by design (admin plugin)
  'admin_actions.details': 'the audit log of admin actions keeps its entries (admin plugin policy)',
  'admin_actions.target_id': 'the audit log of admin actions keeps its entries (admin plugin policy)',
  // emails already sent: the delivery record names the address (the mail itself is gone)
  'core_mail_sent.recipient': 'a record of emails sent (once-keys); purged after 14 days (core.jobs.purge, retention.mailSentDays)',
};

/**
 * Rows kept without the member: their author column set to null and their words removed, so that
 * other members' replies keep their place. The check below proves no such row holds content.
 */
const ANONYMISED: Record<string, { why: string; emptied: string }> = {
  insights_comments: {
    why: 'their comments that others replied under stay as "Deleted member" (en) / "Membre supprimé" (fr) with no author and no words; a comment no one answered is deleted',
    emptied: `user_id is null and (content <> '' or mentions <> '[]'::jsonb)`,
  },
  community_comments: {
    why: 'the same for community comments (core/threads.ts eraseUserComments); their community posts are deleted (no per-community policy: PRIVACY.md)',
    emptied: `user_id is null and (content <> '' or mentions <> '[]'::jsonb)`,
  },
  group_comments: {
    why: 'the same for group comments (core/threads.ts eraseUserComments)',
    emptied: `user_id is null and (content <> '' or mentions <> '[]'::jsonb)`,
  },
};

async function userColumns(app: TestApp) {
  const fk = await app.knex.raw(`
    select kcu.table_name, kcu.column_name from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
     where tc.constraint_type = 'FOREIGN KEY' and ccu.table_name = 'users' and tc.table_schema = 'public'`);
  const named = await app.knex.raw(`
    select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('integer', 'bigint')
       and column_name ~ '(^|_)(user|author|owner|creator|organizer|sender|uploader|actor|follower|following|reporter|requester|target|blocker|blocked|muter|muted|recipient|member|invitee|inviter|manager|reviewer|confirmed_by|created_by|decided_by|issued_by|banned_by|resolved_by|reviewed_by|sent_by)(_id)\\?$'
       and table_name not like 'knex_%'`);
  const set = new Set<string>();
  for (const r of [...fk.rows, ...named.rows]) set.add(`${r.table_name}.${r.column_name}`);
  return [...set].sort();
}

async function textColumns(app: TestApp) {
  const r = await app.knex.raw(`
    select table_name, column_name from information_schema.columns
     where table_schema = 'public' and (data_type in ('text', 'character varying', 'jsonb', 'json') or udt_name = 'citext')
       and table_name not like 'knex_%'`);
  return r.rows.map((x: any) => `${x.table_name}.${x.column_name}`) as string[];
}

async function eraseEverything(app: TestApp) {
  const w = await activeMember(app);
  const id = w.me.me.id;
  // everything is in place before
  for (const u of w.uploads) expect((await app.client().raw('GET', u)).status, u).to.equal(200);
  const before = await app.knex('museums').where({ id: w.museumId }).first('follower_count', 'check_in_count');
  expect(before).to.include({ follower_count: 1, check_in_count: 1 });

  const del = await w.me.del('/api/user/account');
  expect(del.status, del.text).to.equal(200);
  expect(del.body.message).to.match(/sign in before then to keep it/);
  expect((await w.me.get('/api/auth/user')).status).to.equal(401);
  const row = await app.knex('users').where({ id }).first('deletion_requested_at', 'deletion_scheduled_for');
  expect(row.deletion_requested_at).to.not.equal(null);
  const days = (new Date(row.deletion_scheduled_for).getTime() - Date.now()) / 86400_000;
  expect(days).to.be.within(13.9, 14.1);
  // the member is told by email when, and how to keep the account
  const mail = await app.knex('core_jobs').where('unique_key', 'like', `mail:accounts.deletion:${id}:%`).first('payload');
  expect(mail.payload.message.text).to.include(new Date(row.deletion_scheduled_for).toISOString().slice(0, 10));
  expect(mail.payload.message.text).to.include('sign in before then');
  // nothing erased yet: the job waits for the end of the grace period
  expect(await app.jobs.runDue()).to.be.a('number');
  expect(await app.knex('insights_posts').where({ user_id: id })).to.have.length(3);

  app.jobs.setClock(new Date(Date.now() + 14 * 86400_000 + 60_000));
  try {
    await app.jobs.runDue();
  } finally {
    app.jobs.setClock(null);
  }
  // (the background poller may have taken the job while runDue ran: wait for its end)
  const job = await waitFor(
    async () => {
      const j = await app.knex('core_jobs').where({ name: 'accounts.eraseAccount' }).whereRaw(`payload->>'userId' = ?`, [String(id)]).first();
      return j && j.status !== 'running' && j.status !== 'queued' ? j : null;
    },
    { timeout: 90_000, interval: 200 },
  );
  expect(job.status, job.error).to.equal('done');
  expect(job.result).to.include({ userId: id, photoDeleted: true });
  expect(job.result.erasers).to.include('museums');

  // no row names them by id…
  const leftovers: string[] = [];
  for (const col of await userColumns(app)) {
    const [t, c] = col.split('.');
    const n = Number((await app.knex(t).where(c, id).count({ n: '*' }))[0].n);
    if (n > 0 && !KEPT[col]) leftovers.push(`${col} (${n})`);
  }
  // …nor by name, email or words (the cancellation notice of their meetups tells attendees which meetup is gone)
  const except: Record<string, (q: any) => any> = { 'notifications.message': (q) => q.whereNot({ title: 'Meetup cancelled' }) };
  const needles = [w.me.me.email, w.me.me.username, ...w.myTexts];
  for (const col of await textColumns(app)) {
    const [t, c] = col.split('.');
    for (const s of needles) {
      const n = Number((await app.knex(t).whereRaw(`"${c}"::text ilike ?`, [`%${s.replace(/[\\%_]/g, (x) => '\\' + x)}%`]).modify((q) => except[col]?.(q)).count({ n: '*' }))[0].n);
      if (n > 0 && !KEPT[col]) leftovers.push(`${col} holds "${s}" (${n})`);
    }
  }
  expect(leftovers, 'rows the deletion left behind').to.deep.equal([]);

  // (the friend's session ended with the clock moved 14 days ahead: signed in again)
  const friend = app.client();
  const login = await friend.post('/api/auth/login', { email: w.friend.me.email, password: w.friend.me.password });
  expect(login.status, login.text).to.equal(200);

  // comments → "deleted member": the comment the friend answered stays, without author or words,
  // the friend's answer under it; the comment nobody answered is gone (no words of theirs remain: above)
  for (const [t, a] of Object.entries(ANONYMISED)) expect(Number((await app.knex(t).whereRaw(a.emptied).count({ n: '*' }))[0].n), `${t}: ${a.why}`).to.equal(0);
  const kept = await app.knex('insights_comments').where({ id: w.answeredCommentId }).first('user_id', 'content', 'mentions');
  expect(kept).to.deep.equal({ user_id: null, content: '', mentions: [] });
  expect(await app.knex('insights_comments').where({ id: w.friendReplyId }).first('parent_id', 'user_id')).to.deep.equal({ parent_id: w.answeredCommentId, user_id: w.friend.me.id });
  const thread = await friend.get(`/api/posts/${w.friendsPostId}/comments`);
  expect(thread.status, thread.text).to.equal(200);
  expect(thread.body).to.have.length(1);
  expect(thread.body[0]).to.include({ id: w.answeredCommentId, user: null, content: '' });
  expect(thread.body[0].replies.map((r: any) => [r.id, r.user.id, r.content])).to.deep.equal([[w.friendReplyId, w.friend.me.id, 'friend answer to your comment']]);
  const counted = await app.knex('insights_posts').where({ id: w.friendsPostId }).first('comments_count');
  expect(counted.comments_count).to.equal(2);
  // the museum's insights show the thread too (each post's latest comments)
  const feed = await friend.get(`/api/posts/museum/${w.museumId}`);
  const card = feed.body.items.find((p: any) => p.id === w.friendsPostId);
  expect(card.comments.map((c: any) => [c.id, c.user, c.replies.map((r: any) => r.id)])).to.deep.equal([[w.answeredCommentId, null, [w.friendReplyId]]]);
  // the same in the community (which passed to the friend)
  expect(await app.knex('community_comments').where({ id: w.answeredCommunityCommentId }).first('user_id', 'content', 'mentions')).to.deep.equal({ user_id: null, content: '', mentions: [] });
  const cthread = await friend.get(`/api/community-posts/${w.friendsCommunityPostId}/comments`);
  expect(cthread.status, cthread.text).to.equal(200);
  expect(cthread.body.map((c: any) => [c.id, c.user, c.content, c.replies.map((r: any) => [r.id, r.user?.id])])).to.deep.equal([
    [w.answeredCommunityCommentId, null, '', [[w.friendCommunityReplyId, w.friend.me.id]]],
  ]);
  expect((await friend.del(`/api/community-comments/${w.friendCommunityReplyId}`)).status).to.equal(200);
  expect(await app.knex('community_comments').where({ post_id: w.friendsCommunityPostId })).to.deep.equal([]);
  expect((await app.knex('community_posts').where({ id: w.friendsCommunityPostId }).first('comments_count')).comments_count).to.equal(0);

  // the friend deletes their answer: the emptied comment has nothing left to hold and goes too
  expect((await friend.del(`/api/comments/${w.friendReplyId}`)).status).to.equal(200);
  expect(await app.knex('insights_comments').where({ post_id: w.friendsPostId })).to.deep.equal([]);
  expect((await app.knex('insights_posts').where({ id: w.friendsPostId }).first('comments_count')).comments_count).to.equal(0);

  // no stored file of theirs
  for (const u of w.uploads) {
    const key = app.storage.keyFromUrl(u)!;
    expect(await app.storage.exists(key), u).to.equal(false);
  }
  // counters they raised came down exactly
  expect(await app.knex('museums').where({ id: w.museumId }).first('follower_count', 'check_in_count')).to.include({ follower_count: 0, check_in_count: 0 });
  expect(await app.knex('users').where({ id: w.friend.me.id }).first('followers_count', 'following_count')).to.deep.equal({ followers_count: 0, following_count: 0 });
}

describe('accounts: deletion that deletes (issue 24)', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ plugins: { config: { accounts: { deletionGraceDays: 14 } } } });
  });
  after(async () => app?.close());

  it('finds the user columns of every table (the list the check walks)', async () => {
    const cols = await userColumns(app);
    for (const c of ['insights_posts.user_id', 'museum_follows.user_id', 'messages_messages.sender_id', 'events_attendees.user_id', 'notifications.user_id', 'user_sessions.user_id', 'push_subscriptions.user_id', 'reports.reporter_id'])
      expect(cols).to.include(c);
  });

  it('after the grace period the job erases every row and file of the member; only the documented rows keep a trace', () => eraseEverything(app));

  it('signing in during the grace period cancels the deletion', async () => {
    const u = await app.user();
    expect((await u.del('/api/user/account')).status).to.equal(200);
    expect((await app.knex('core_jobs').where({ unique_key: `accounts.erase:${u.me.id}`, status: 'queued' })).length).to.equal(1);
    const back = app.client();
    const r = await back.post('/api/auth/login', { email: u.me.email, password: u.me.password });
    expect(r.status, r.text).to.equal(200);
    expect((await app.knex('users').where({ id: u.me.id }).first('deletion_requested_at')).deletion_requested_at).to.equal(null);
    expect(await app.knex('core_jobs').where({ unique_key: `accounts.erase:${u.me.id}` })).to.have.length(0);
    app.jobs.setClock(new Date(Date.now() + 15 * 86400_000));
    try {
      await app.jobs.runDue();
    } finally {
      app.jobs.setClock(null);
    }
    // (the session itself may have been purged by the retention job at that date: the account stays)
    expect(await app.knex('users').where({ id: u.me.id }).first('id')).to.deep.equal({ id: u.me.id });
  });

  it('hides the member and their content from others during the grace period; signing in shows them again', async () => {
    const u = await app.user();
    const other = await app.user();
    const admin = await app.user({ role: 'Admin' });
    const anon = app.client();
    const theirs = await u.post('/api/posts', { type: 'text', content: `Pending words ${u.me.username}`, videoUrl: null, museumId: null, tags: [] });
    expect(theirs.status, theirs.text).to.equal(201);
    const others = await other.post('/api/posts', { type: 'text', content: 'A post of the other', videoUrl: null, museumId: null, tags: [] });
    const comment = await u.post(`/api/posts/${others.body.id}/comments`, { content: 'A comment while pending' });
    expect(comment.status, comment.text).to.equal(201);
    expect((await other.post(`/api/user/${u.me.id}/follow`)).status).to.equal(200);
    expect((await u.post(`/api/user/${other.me.id}/follow`)).status).to.equal(200);

    /** What others see of u: [profile, in search, in other's feed, in all insights, their post, their comment, in other's followers]. */
    const seen = async () => [
      (await other.get(`/api/user/${u.me.id}`)).status === 200,
      ((await other.get(`/api/search?q=${encodeURIComponent(u.me.username)}`)).body.users ?? []).some((x: any) => x.id === u.me.id),
      (await other.get('/api/feed/personalized?limit=50')).body.items.some((p: any) => p.id === theirs.body.id),
      (await anon.get('/api/posts?limit=50')).body.items.some((p: any) => p.id === theirs.body.id),
      (await other.get(`/api/posts/${theirs.body.id}`)).status === 200,
      (await other.get(`/api/posts/${others.body.id}/comments`)).body.some((c: any) => c.id === comment.body.id),
      (await other.get(`/api/user/${other.me.id}/followers`)).body.some((x: any) => x.id === u.me.id),
    ];
    const all = [true, true, true, true, true, true, true];
    expect(await seen(), 'before the request').to.deep.equal(all);

    expect((await u.del('/api/user/account')).status).to.equal(200);
    expect(await seen(), 'during the grace period').to.deep.equal([false, false, false, false, false, false, false]);
    expect((await other.get(`/api/user/${u.me.id}`)).status).to.equal(404);
    // Admins still see them
    expect((await admin.get(`/api/user/${u.me.id}`)).status).to.equal(200);
    expect((await admin.get(`/api/posts/${theirs.body.id}`)).status).to.equal(200);

    // signing in cancels the deletion: visible again
    const back = app.client();
    expect((await back.post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(200);
    expect(await seen(), 'after signing in').to.deep.equal(all);
  });

  it('an admin deletes at once', async () => {
    const admin = await app.user({ role: 'Admin' });
    const u = await app.user();
    const r = await admin.del('/api/admin/delete-user', { userId: u.me.id, reason: 'test' });
    expect(r.status, r.text).to.equal(200);
    expect(await app.knex('users').where({ id: u.me.id }).first()).to.equal(undefined);
  });

  it('keeps museum counters exact when a member follows museums in the instant their account is erased', async () => {
    const { MuseumsService } = await import('../../museums/public.ts');
    const museums = app.services.get(MuseumsService);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(Number((await museums.createMuseum({ name: `Race ${Date.now()} ${i}`, address: '1 St', city: 'Lyon', country: 'France' } as any, null)).id));
    const { AccountsService } = await import('../public.ts');
    const accounts = app.services.get(AccountsService);
    for (let round = 0; round < 6; round++) {
      const u = await app.user();
      if (round % 2) await u.post(`/api/museums/${ids[0]}/follow`);
      const follows = ids.map((m) => u.post(`/api/museums/${m}/follow`));
      const gone = accounts.deleteUser(u.me.id);
      const answers = await Promise.all(follows);
      expect(await gone).to.equal(true);
      for (const a of answers) expect(a.status, a.text).to.be.oneOf([200, 401]);
    }
    for (const m of ids) {
      const row = await app.knex('museums').where({ id: m }).first('follower_count');
      const real = Number((await app.knex('museum_follows').where({ museum_id: m }).count({ n: '*' }))[0].n);
      expect(row.follower_count, `museum ${m}`).to.equal(real);
    }
  });
});

describe('accounts: deletion that deletes, on S3 storage (issue 24)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let s3: TestS3;
  before(async () => {
    s3 = await startTestS3();
    app = await startTestApp({ storage: s3.storageConfig(), plugins: { config: { accounts: { deletionGraceDays: 14 } } } });
  });
  after(async () => {
    await app?.close();
    await s3?.close();
  });

  it('erases every row and every stored object of the member', () => eraseEverything(app));
});
