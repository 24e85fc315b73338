import { expect } from 'chai';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';
import { makeCommunity, makeMuseum, meetupBody } from './test-helpers.ts';

/** A content restriction (admin moderation) refuses creating meetups and museum events: that is posting content. */
describe('events: a content restriction refuses creating events', () => {
  let app: TestApp;
  let admin: SignedInClient;
  before(async () => {
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  async function restrict(u: SignedInClient) {
    const r = await admin.post('/api/admin/moderate-user', { userId: u.me.id, type: 'content_restriction', reason: 'Spam meetups' });
    expect(r.status, r.text).to.be.oneOf([200, 201]);
  }

  it('refuses a restricted Ambassador a meetup in their own community and group, with a clear message; nothing is stored', async () => {
    const amb = await app.user({ role: 'Ambassador' });
    const communityId = await makeCommunity(amb);
    const g = await amb.post('/api/groups', { name: `Group ${amb.me.username}` });
    expect(g.status, g.text).to.equal(201);
    // allowed before the restriction
    expect((await amb.post(`/api/communities/${communityId}/meetups`, meetupBody())).status).to.equal(201);
    await restrict(amb);
    const before = Number((await app.knex('events_events').where({ organizer_id: amb.me.id }).count({ n: '*' }))[0].n);
    for (const path of [`/api/communities/${communityId}/meetups`, `/api/groups/${g.body.id}/meetups`]) {
      const r = await amb.post(path, meetupBody({ title: 'Cheap watches meetup' }));
      expect(r.status, path).to.equal(403);
      expect(r.body.message, path).to.equal('Your account is restricted from creating meetups');
    }
    expect(Number((await app.knex('events_events').where({ organizer_id: amb.me.id }).count({ n: '*' }))[0].n)).to.equal(before);
    expect((await app.knex('events_events').where({ organizer_id: amb.me.id, title: 'Cheap watches meetup' })).length).to.equal(0);
    // reading still works
    expect((await amb.get(`/api/communities/${communityId}/meetups`)).status).to.equal(200);
  });

  it("refuses a restricted museum manager's new museum event", async () => {
    const manager = await app.user({ role: 'Museum Manager' });
    const museum = await makeMuseum(app);
    await app.services.get(MuseumsService).setManager(museum.id, manager.me.id);
    const body = { museumId: museum.id, title: 'Late opening', description: 'Evening visit', date: '2031-05-04', startTime: '19:00' };
    expect((await manager.post('/api/museum-events', body)).status).to.equal(201);
    await restrict(manager);
    const r = await manager.post('/api/museum-events', { ...body, title: 'Restricted event' });
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('Your account is restricted from creating events');
    expect((await app.knex('events_events').where({ title: 'Restricted event', museum_id: museum.id })).length).to.equal(0);
  });
});
