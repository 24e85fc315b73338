import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { AccountsService, type AccountsApi } from '../public.ts';

/** AccountsApi.getUserBios: bios for lists of people (community members), within profile privacy. */
describe('accounts: getUserBios', () => {
  let app: TestApp;
  let api: AccountsApi;
  before(async () => {
    app = await sharedApp();
    api = app.services.get(AccountsService);
  });

  it('answers the bios a viewer may read: public profiles, friends-only to friends, private to followers, all to the owner and Admins', async () => {
    const [open, friends, closed, silent, viewer, admin] = await Promise.all([app.user(), app.user(), app.user(), app.user(), app.user(), app.user({ role: 'Admin' })]);
    for (const [c, bio] of [[open, 'Open book.'], [friends, 'For friends.'], [closed, 'For followers.']] as const) {
      expect((await c.put('/api/user/profile', { bio })).status).to.equal(200);
    }
    expect((await friends.put('/api/user/preferences', { profileVisibility: 'friends' })).status).to.equal(200);
    expect((await closed.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    const ids = [open.me.id, friends.me.id, closed.me.id, silent.me.id, 2147483000, -3];
    const as = async (v: { me: { id: number; role: string } } | null) => Object.fromEntries(await api.getUserBios(ids, v ? { id: v.me.id, role: v.me.role } : null));

    expect(await as(null)).to.deep.equal({ [open.me.id]: 'Open book.', [silent.me.id]: '' });
    expect(await as(viewer)).to.deep.equal({ [open.me.id]: 'Open book.', [silent.me.id]: '' });
    // friends-only: either direction of a follow; private: only the owner's followers
    expect((await friends.post(`/api/user/${viewer.me.id}/follow`)).body.following).to.equal(true);
    expect(await as(viewer)).to.deep.equal({ [open.me.id]: 'Open book.', [friends.me.id]: 'For friends.', [silent.me.id]: '' });
    expect((await closed.post(`/api/user/${viewer.me.id}/follow`)).body.following).to.equal(true);
    expect(await as(viewer)).to.not.have.property(String(closed.me.id));
    expect((await viewer.post(`/api/user/${closed.me.id}/follow`)).body.requested).to.equal(true);
    expect(await as(viewer)).to.not.have.property(String(closed.me.id)); // a request is not a follow
    const req = (await closed.get('/api/follow-requests')).body.items[0];
    expect((await closed.post(`/api/follow-requests/${req.id}/authorize`)).status).to.equal(200);
    expect((await as(viewer))[closed.me.id]).to.equal('For followers.');
    // the owner and Admins see their own / everyone's
    expect((await as(closed))[closed.me.id]).to.equal('For followers.');
    expect(await as(admin)).to.deep.equal({ [open.me.id]: 'Open book.', [friends.me.id]: 'For friends.', [closed.me.id]: 'For followers.', [silent.me.id]: '' });
    expect((await api.getUserBios([], null)).size).to.equal(0);
  });
});
