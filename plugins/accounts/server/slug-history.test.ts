import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { AccountsService } from '../public.ts';

/** Issue 21: renaming a username keeps old profile links working (301 to the current slug; the API finds the member by an old slug). */
describe('accounts: old profile slugs after a rename', function () {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });
  const unique = () => `slug${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

  it('an old slug answers 301 to the current profile (query kept), the API and findUser find the member by it; a later owner of the name wins', async () => {
    const base = unique();
    const member = await app.user({ username: `${base}_old` });
    const oldSlug = member.me.slug;
    const visitor = app.client();

    // the page, before: no redirect (the page itself may be 503 where the web app is not built)
    const served = (res: Response) => res.status !== 301 && res.status !== 404;
    expect(served(await visitor.raw('GET', `/profile/${oldSlug}`))).to.equal(true);

    const r = await member.put('/api/user/profile', { username: `${base}_new` });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const newSlug = (await member.get('/api/auth/user')).body.user?.slug ?? (await member.get(`/api/user/${member.me.id}`)).body.slug;
    expect(newSlug).to.not.equal(oldSlug);

    // the page: 301 to the current slug, with the query string
    const moved = await visitor.raw('GET', `/profile/${oldSlug}?tab=badges`);
    expect(moved.status).to.equal(301);
    expect(moved.headers.get('location')).to.equal(`/profile/${newSlug}?tab=badges`);
    // the old username (case-insensitive) too
    const byName = await visitor.raw('GET', `/profile/${encodeURIComponent(`${base}_OLD`)}`);
    expect(byName.status).to.equal(301);
    expect(byName.headers.get('location')).to.equal(`/profile/${newSlug}`);
    // the current one is served
    expect(served(await visitor.raw('GET', `/profile/${newSlug}`))).to.equal(true);
    // an unknown one is not redirected
    expect((await visitor.raw('GET', `/profile/${unique()}`)).status).to.not.equal(301);

    // the API by the old slug: the member, with the current slug
    const api = await visitor.get(`/api/user/slug/${oldSlug}`);
    expect(api.status).to.equal(200);
    expect(api.body).to.deep.include({ id: member.me.id, slug: newSlug });
    const found = await app.services.get(AccountsService).findUser(oldSlug);
    expect(found?.id).to.equal(member.me.id);

    // renamed again: the first name still leads to the newest one
    expect((await member.put('/api/user/profile', { username: `${base}_third` })).status).to.equal(200);
    const third = (await member.get(`/api/user/${member.me.id}`)).body.slug;
    const again = await visitor.raw('GET', `/profile/${oldSlug}`);
    expect(again.status).to.equal(301);
    expect(again.headers.get('location')).to.equal(`/profile/${third}`);

    // someone else takes the old name: their profile wins, no redirect
    const taker = await app.user({ username: `${base}_old`, email: `${base}.taker@example.test` });
    expect(taker.me.slug).to.equal(oldSlug);
    expect(served(await visitor.raw('GET', `/profile/${oldSlug}`))).to.equal(true);
    expect((await visitor.get(`/api/user/slug/${oldSlug}`)).body.id).to.equal(taker.me.id);

    // renaming back to a name in one's own history removes it from the history
    expect((await member.put('/api/user/profile', { username: `${base}_new` })).status).to.equal(200);
    expect(served(await visitor.raw('GET', `/profile/${newSlug}`))).to.equal(true);
    const rows = await app.knex('user_slug_history').where({ user_id: member.me.id }).pluck('slug');
    expect(rows).to.not.include(newSlug);
    expect(rows).to.include(third);
  });
});
