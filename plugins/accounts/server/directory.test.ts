import crypto from 'node:crypto';
import { expect } from 'chai';
import { sharedApp, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { AccountsService, type AccountsApi } from '../public.ts';
import { searchUsersQuery } from './service.ts';

/** A random word of letters only (names are searched as text; uniqueName is hex). */
function word(prefix: string): string {
  return prefix + crypto.randomBytes(5).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
}

/**
 * The user directory accounts offers other plugins: the admin list (listUsers, countUsers), the
 * people search of GET /api/search, and the bulk id walk (notifications to everyone).
 */
describe('accounts: user directory', function () {
  let app: TestApp;
  let api: AccountsApi;

  before(async function () {
    this.timeout(120_000);
    app = await sharedApp();
    api = app.services.get(AccountsService);
  });

  describe('listUsers and countUsers (admin list)', () => {
    it('match username, first name, last name, "first last" and email, case-insensitively, newest first', async () => {
      const last = word('Lastname');
      const a = await app.user({ username: word('alpha'), firstName: 'Ottilie', lastName: last });
      const b = await app.user({ username: word('bravo'), firstName: 'Barnaby', lastName: last });
      const c = await app.user({ username: word('charlie'), firstName: 'Cosima', lastName: last, email: `${word('mailbox')}@example.test` });

      const byLast = await api.listUsers({ q: last.toUpperCase() });
      expect(byLast.items.map((u) => u.id)).to.deep.equal([c.me.id, b.me.id, a.me.id]);
      expect(byLast).to.include({ total: 3, page: 1, pageSize: 10 });
      expect(byLast.items[0]).to.deep.equal({
        id: c.me.id,
        slug: c.me.slug,
        username: c.me.username,
        firstName: 'Cosima',
        lastName: last,
        profileImageUrl: null,
        profileImageInfo: null,
        role: 'Traveler',
        email: c.me.email,
      });

      expect((await api.listUsers({ q: b.me.username.slice(2, 12).toUpperCase() })).items.map((u) => u.id)).to.deep.equal([b.me.id]);
      expect((await api.listUsers({ q: `barnaby ${last.slice(0, 12)}` })).items.map((u) => u.id)).to.deep.equal([b.me.id]);
      expect((await api.listUsers({ q: c.me.email.split('@')[0].toUpperCase() })).items.map((u) => u.id)).to.deep.equal([c.me.id]);
      // a match never spans two fields: the end of the username followed by the first name
      expect((await api.listUsers({ q: `${a.me.username.slice(-4)}ottilie` })).total).to.equal(0);
      expect((await api.listUsers({ q: `${a.me.username.slice(-4)} ottilie` })).total).to.equal(0);

      const page2 = await api.listUsers({ q: last, page: 2, pageSize: 2 });
      expect(page2).to.include({ total: 3, page: 2, pageSize: 2 });
      expect(page2.items.map((u) => u.id)).to.deep.equal([a.me.id]);
    });

    it('takes LIKE wildcards literally', async () => {
      const last = word('Under');
      const [w1, w2] = [word('snake'), word('case')];
      const u = await app.user({ username: `${w1}_${w2}`, firstName: 'Percy', lastName: last });
      expect((await api.listUsers({ q: last })).items.map((x) => x.id)).to.deep.equal([u.me.id]);
      expect((await api.listUsers({ q: `${last.slice(0, 6)}%${last.slice(7)}` })).total).to.equal(0);
      expect((await api.listUsers({ q: `${last.slice(0, 6)}_${last.slice(7)}` })).total).to.equal(0);
      expect((await api.listUsers({ q: `${w1.slice(-3)}_${w2.slice(0, 3)}` })).items.map((x) => x.id)).to.deep.equal([u.me.id]);
    });

    it('filters by roles (any accepted spelling) and counts exactly', async () => {
      const tag = word('Rolecheck');
      const m = await app.user({ role: 'Museum Manager', lastName: tag });
      const x = await app.user({ role: 'Admin', lastName: tag });
      await app.user({ lastName: tag });
      const managers = await api.listUsers({ q: tag, roles: ['museum_manager', 'Admin'] });
      expect(managers.items.map((u) => u.id)).to.deep.equal([x.me.id, m.me.id]);
      expect((await api.listUsers({ q: tag, roles: ['wizard'] })).total).to.equal(0);

      const all = await api.countUsers();
      const admins = await api.countUsers({ roles: ['Admin'] });
      const [{ n }] = await app.knex('users').count({ n: '*' });
      const [{ n: na }] = await app.knex('users').where({ role: 'Admin' }).count({ n: '*' });
      expect(all).to.equal(Number(n));
      expect(admins).to.equal(Number(na));
      await app.user({ role: 'Admin' });
      expect(await api.countUsers({ roles: ['admin'] })).to.equal(admins + 1);
    });
  });

  describe('people in GET /api/search', () => {
    let viewer: SignedInClient;
    before(async () => {
      viewer = await app.user();
    });

    it('finds members by a partial first name, last name, "first last" or username; never by email', async () => {
      const last = word('Vanderquist');
      const email = `${word('secretbox')}@example.test`;
      const u = await app.user({ username: word('wanderer'), firstName: 'Henrietta', lastName: last, email });

      const byPart = await viewer.get(`/api/search?q=${encodeURIComponent(last.slice(3, 14).toLowerCase())}`);
      expect(byPart.status).to.equal(200);
      expect(byPart.body.users).to.deep.equal([
        { id: u.me.id, slug: u.me.slug, username: u.me.username, firstName: 'Henrietta', lastName: last, profileImageUrl: null, profileImageInfo: null, role: 'Traveler' },
      ]);
      const full = await viewer.get(`/api/search?q=${encodeURIComponent(`henrietta ${last.slice(0, 10)}`)}`);
      expect(full.body.users.map((x: any) => x.id)).to.deep.equal([u.me.id]);
      const byUsername = await viewer.get(`/api/search?q=${u.me.username.slice(1, 11).toUpperCase()}`);
      expect(byUsername.body.users.map((x: any) => x.id)).to.deep.equal([u.me.id]);
      const byEmail = await viewer.get(`/api/search?q=${email.split('@')[0]}`);
      expect(byEmail.body.users).to.deep.equal([]);
    });

    it("reads the viewer's relations per member listed, never all of the viewer's followers or follows", async () => {
      // Without a bound, PostgreSQL may hash every follower of the viewer to answer "follows you" for
      // ten members, and the prepared (generic) plan does so whatever their number: 1,223 followers
      // made the search's users part 1.55 ms instead of 0.41 (issue 18)
      const last = word('Hashless');
      const star = await app.user();
      // twelve members of one family name who follow the viewer and whom the viewer follows
      const tag = last.toLowerCase();
      const fans: number[] = (
        await app.knex.raw(
          `insert into users (slug, username, email, password_hash, first_name, last_name)
           select ? || g, ? || g, ? || g || '@example.test', 'x', 'Fan', ? from generate_series(1, 12) g returning id`,
          [tag, tag, tag, last],
        )
      ).rows.map((r: any) => r.id);
      await app.knex('user_follows').insert(fans.map((id) => ({ follower_id: id, following_id: star.me.id })));
      await app.knex('user_follows').insert(fans.map((id) => ({ follower_id: star.me.id, following_id: id })));
      await app.knex.raw('analyze users');
      await app.knex.raw('analyze user_follows');
      const q = searchUsersQuery(app.knex, last, 10, star.me.id)!.toSQL().toNative();
      const name = `directory_${crypto.randomBytes(4).toString('hex')}`;
      await app.knex.transaction(async (trx) => {
        await trx.raw('set local plan_cache_mode = force_generic_plan');
        await trx.raw(`prepare ${name} as ${q.sql}`);
        try {
          // the bindings written as SQL literals for EXECUTE
          const values = q.bindings.map((b) => (typeof b === 'number' ? String(b) : `'${String(b).replace(/'/g, "''")}'`)).join(', ');
          const plan = (await trx.raw(`explain (verbose) execute ${name}(${values})`)).rows.map((r: any) => r['QUERY PLAN']).join('\n');
          expect(plan).to.not.match(/hashed SubPlan/);
          const rows = (await trx.raw(`execute ${name}(${values})`)).rows;
          // the answer itself: ten of them, each followed by and following the viewer
          const fanIds = new Set(fans);
          expect(rows).to.have.length(10);
          expect(rows.every((r: any) => fanIds.has(r.id) && r.isFollowing === true && r.followsYou === true)).to.equal(true);
        } finally {
          await trx.raw(`deallocate ${name}`);
        }
      });
    });

    it('lists the exact username first, then names starting with the text', async () => {
      const base = word('Quillon');
      const inside = await app.user({ firstName: 'Ana', lastName: `Mc${base}` });
      const starts = await app.user({ firstName: 'Ben', lastName: `${base}son` });
      const exact = await app.user({ username: base.toLowerCase(), firstName: 'Cy', lastName: 'Other' });
      const r = await viewer.get(`/api/search?q=${base}`);
      expect(r.body.users.map((x: any) => x.id)).to.deep.equal([exact.me.id, starts.me.id, inside.me.id]);
    });

    it('is for signed-in members; a private profile appears by name and photo only', async () => {
      const last = word('Privatova');
      const u = await app.user({ firstName: 'Greta', lastName: last });
      expect((await app.client().get(`/api/search?q=${last}`)).body.users).to.deep.equal([]);

      await u.put('/api/user/preferences', { profileVisibility: 'private' });
      const hidden = await viewer.get(`/api/search?q=${last}`);
      expect(hidden.body.users).to.deep.equal([{ id: u.me.id, slug: u.me.slug, username: u.me.username, firstName: 'Greta', lastName: last, profileImageUrl: null, profileImageInfo: null }]);
      // a follower may see the private profile: the full summary
      expect((await viewer.post(`/api/user/${u.me.id}/follow`, {})).body.requested).to.equal(true);
      const req = (await u.get('/api/follow-requests')).body.items[0];
      expect((await u.post(`/api/follow-requests/${req.id}/authorize`)).status).to.equal(200);
      expect((await viewer.get(`/api/search?q=${last}`)).body.users[0]).to.include({ id: u.me.id, role: 'Traveler' });
      // and the member always sees themselves in full
      expect((await u.get(`/api/search?q=${last}`)).body.users[0]).to.include({ id: u.me.id, role: 'Traveler' });
    });
  });

  describe('userIdsBatch and userIdRange (walking every member)', () => {
    it('walks every id once, ascending, in batches, up to maxId', async () => {
      const made = [await app.user(), await app.user(), await app.user()];
      const range = await api.userIdRange();
      const [{ n, m }] = await app.knex('users').select(app.knex.raw('count(*)::int as n'), app.knex.raw('max(id)::int as m'));
      expect(range).to.deep.equal({ count: n, maxId: m });

      const seen: number[] = [];
      for (let after = 0; ; ) {
        const batch = await api.userIdsBatch(after, 2, { maxId: range.maxId });
        if (!batch.length) break;
        expect(batch.length).to.be.at.most(2);
        seen.push(...batch);
        after = batch[batch.length - 1];
      }
      const ids = (await app.knex('users').where('id', '<=', range.maxId).orderBy('id').pluck('id')).map(Number);
      expect(seen).to.deep.equal(ids);
      for (const u of made) expect(seen).to.include(u.me.id);

      const later = await app.user();
      expect(await api.userIdsBatch(range.maxId, 10, { maxId: range.maxId })).to.deep.equal([]);
      expect(await api.userIdsBatch(range.maxId, 10)).to.include(later.me.id);
    });
  });
});
