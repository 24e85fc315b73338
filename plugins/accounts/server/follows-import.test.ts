/**
 * The import of follows (issue 24): a Curio follows.csv / museum-follows.csv, or a Mastodon-style
 * list of handles, follows again — requests for private profiles, refused for blocks, never an
 * unfollow, counters exact.
 */
import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { createMuseum } from '../../insights/server/test-helpers.ts';

describe('accounts: import of follows (issue 24)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('follows again from a Curio follows.csv and museum-follows.csv, respecting private profiles and blocks', async () => {
    const me = await app.user();
    const open = await app.user();
    const locked = await app.user();
    const blocked = await app.user();
    const already = await app.user();
    expect((await locked.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    expect((await me.post(`/api/user/${blocked.me.id}/block`)).status).to.equal(200);
    expect((await me.post(`/api/user/${already.me.id}/follow`)).status).to.equal(200);
    const follows = [
      'username,slug,profile,since',
      `${open.me.username},${open.me.slug},https://old.example/profile/${open.me.slug},2026-01-01T00:00:00.000Z`,
      `${locked.me.username},${locked.me.slug},,`,
      `${blocked.me.username},${blocked.me.slug},,`,
      `${already.me.username},${already.me.slug},,`,
      `${me.me.username},${me.me.slug},,`,
      'nobody_here_42,nobody,,',
    ].join('\n');
    const r = await me.post('/api/user/follows/import', { csv: follows });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ followed: 1, requested: 1, already: 1, refused: 1, notFound: ['nobody_here_42'] });
    expect((await open.get('/api/user')).body.followersCount).to.equal(1);
    expect((await already.get('/api/user')).body.followersCount).to.equal(1); // not toggled off
    expect((await locked.get('/api/follow-requests')).body.items.map((x: any) => x.user.id)).to.deep.equal([me.me.id]);
    expect(await app.knex('user_follows').where({ follower_id: me.me.id, following_id: blocked.me.id })).to.have.length(0);

    const museum = await createMuseum(app, `Import museum ${Date.now()}`);
    const csv = `museum_id,name,slug,since\n${museum.id},"Name, with comma",${museum.slug},2026-01-01T00:00:00.000Z\n`;
    expect((await me.post('/api/user/follows/import', { csv })).body).to.include({ followed: 1, already: 0 });
    expect((await me.post('/api/user/follows/import', { csv })).body).to.include({ followed: 0, already: 1 });
    const row = await app.knex('museums').where({ id: museum.id }).first('follower_count');
    expect(row.follower_count).to.equal(1);
    // again: nothing changes (an import never unfollows)
    expect((await me.post('/api/user/follows/import', { csv: follows })).body).to.include({ followed: 0, already: 3 });
  });

  it('reads a Mastodon-style list of handles (members and museums)', async () => {
    const me = await app.user();
    const a = await app.user();
    const b = await app.user();
    const museum = await createMuseum(app, `Handle museum ${Date.now()}`);
    const csv = ['Account address,Show boosts,Notify on new posts,Languages', `${a.me.username}@curio.example,true,false,`, `@${b.me.username},true,false,`, `museum:${museum.slug},true,false,`].join('\r\n');
    const r = await me.post('/api/user/follows/import', { csv });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ followed: 3, requested: 0, already: 0, refused: 0, notFound: [] });
    expect((await me.get('/api/user')).body.followingCount).to.equal(2);
  });

  it('refuses signed-out callers and bad bodies', async () => {
    expect((await app.client().post('/api/user/follows/import', { csv: 'x' })).status).to.equal(401);
    const me = await app.user();
    expect((await me.post('/api/user/follows/import', {})).status).to.equal(400);
    expect((await me.post('/api/user/follows/import', { csv: 'x'.repeat(1_000_001) })).status).to.be.oneOf([400, 413]);
  });
});
