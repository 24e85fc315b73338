import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { makeCommunity, makeMeetup, meetupBody } from './test-helpers.ts';

/**
 * Meetups of a private community or group are for its members (and the organizer): outsiders get
 * 404 on the meetup and everything under it, 403 on the community's or group's meetup list (the
 * same answer as the community or group itself), and the meetups are absent from every list,
 * search and calendar feed they could otherwise reach.
 */
describe('events: meetups of private communities and groups', () => {
  let app: TestApp;
  let organizer: SignedInClient; // Ambassador, creator of the private community and group
  let member: SignedInClient; // accepted member of both
  let outsider: SignedInClient; // signed in, member of neither
  let communityId: number;
  let groupId: number;
  let word: string; // a unique word in every meetup title here, for the searches
  let inCommunity: any; // whoCanJoin: anyone, to show privacy wins over the join setting
  let inGroup: any;

  async function privateCommunity(owner: SignedInClient, members: SignedInClient[]): Promise<number> {
    const r = await owner.post('/api/communities', { name: uniqueName('Private '), description: 'Members only', membershipType: 'private' });
    expect(r.status, r.text).to.equal(201);
    for (const m of members) {
      const j = await m.post(`/api/communities/${r.body.id}/join`, {});
      expect(j.body.status, j.text).to.equal('requested');
      const reqs = await owner.get(`/api/communities/${r.body.id}/join-requests`);
      const req = reqs.body.find((x: any) => x.user.id === m.me.id);
      expect((await owner.post(`/api/communities/${r.body.id}/join-requests/${req.id}/accept`)).status).to.equal(200);
    }
    return r.body.id;
  }

  const ids = (list: any[]) => list.map((e) => e.id);

  before(async () => {
    app = await sharedApp();
    [organizer, member, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    word = uniqueName('Hush').replace(/[^A-Za-z0-9]/g, '');
    communityId = await privateCommunity(organizer, [member]);
    const g = await organizer.post('/api/groups', { name: uniqueName('Secret group '), isPrivate: true });
    expect(g.status, g.text).to.equal(201);
    groupId = g.body.id;
    expect((await organizer.post(`/api/groups/${groupId}/members`, { username: member.me.username })).status).to.equal(201);
    inCommunity = await makeMeetup(organizer, communityId, { title: `${word} community walk`, whoCanJoin: 'anyone' });
    const r = await organizer.post(`/api/groups/${groupId}/meetups`, meetupBody({ title: `${word} group sketching`, whoCanJoin: 'anyone' }));
    expect(r.status, r.text).to.equal(201);
    inGroup = r.body;
  });

  it('answers 404 to outsiders and visitors for the meetup and everything under it, as for a missing one', async () => {
    for (const m of [inCommunity, inGroup]) {
      for (const path of [`/api/meetups/${m.id}`, `/api/meetups/${m.id}/ics`, `/api/meetups/${m.id}/photos`, `/api/meetups/${m.id}/comments`]) {
        for (const c of [outsider, app.client()]) {
          const r = await c.get(path);
          expect(r.status, path).to.equal(404);
          expect(r.body.message, path).to.equal('Meetup not found');
        }
      }
      const join = await outsider.post(`/api/meetups/${m.id}/join`, { status: 'attending' });
      expect(join.status).to.equal(404);
      expect(join.body.message).to.equal('Meetup not found');
      expect((await outsider.del(`/api/meetups/${m.id}/join`)).status).to.equal(404);
      expect((await outsider.post(`/api/meetups/${m.id}/comments`, { content: 'hello?' })).status).to.equal(404);
      expect((await outsider.put(`/api/meetups/${m.id}`, meetupBody())).status).to.equal(404);
      expect((await outsider.del(`/api/meetups/${m.id}`)).status).to.equal(404);
      expect(await app.knex('events_attendees').where({ event_id: m.id, user_id: outsider.me.id }).first()).to.equal(undefined);
    }
  });

  it('lets members and the organizer read, join and download them', async () => {
    for (const m of [inCommunity, inGroup]) {
      for (const c of [member, organizer]) {
        const r = await c.get(`/api/meetups/${m.id}`);
        expect(r.status, r.text).to.equal(200);
        expect(r.body.title).to.equal(m.title);
        expect((await c.get(`/api/meetups/${m.id}/ics`)).status).to.equal(200);
      }
      const j = await member.post(`/api/meetups/${m.id}/join`, { status: 'attending' });
      expect(j.status, j.text).to.equal(200);
      expect(j.body.userStatus).to.equal('attending');
    }
  });

  it("answers the community's and the group's own 403 to outsiders for their meetup lists", async () => {
    const c = await outsider.get(`/api/communities/${communityId}/meetups`);
    expect(c.status).to.equal(403);
    expect(c.body.message).to.equal('This community is private. Only members can see its discussions and members.');
    const g = await outsider.get(`/api/groups/${groupId}/meetups`);
    expect(g.status).to.equal(403);
    expect(g.body.message).to.equal('This group is private. Only its members can see it.');
    expect(ids((await member.get(`/api/communities/${communityId}/meetups`)).body)).to.include(inCommunity.id);
    expect(ids((await member.get(`/api/groups/${groupId}/meetups`)).body)).to.include(inGroup.id);
  });

  it('leaves them out of GET /api/meetups and of both searches for outsiders and visitors, not for members', async () => {
    for (const path of [`/api/meetups?q=${word}`, `/api/search/events?q=${word}`]) {
      expect(ids((await outsider.get(path)).body), path).to.deep.equal([]);
      expect(ids((await app.client().get(path)).body), `${path} (visitor)`).to.deep.equal([]);
      expect(ids((await member.get(path)).body), path).to.have.members([inCommunity.id, inGroup.id]);
    }
    const all = await outsider.get(`/api/search?q=${word}`);
    expect(all.status).to.equal(200);
    expect(ids(all.body.events)).to.deep.equal([]);
    expect(ids((await app.client().get(`/api/search?q=${word}`)).body.events)).to.deep.equal([]);
    expect(ids((await member.get(`/api/search?q=${word}`)).body.events)).to.have.members([inCommunity.id, inGroup.id]);
  });

  it('fills a page with visible meetups even when hidden ones come first', async () => {
    const other = await app.user({ role: 'Ambassador' });
    const hiddenCommunity = await privateCommunity(other, []);
    const tag = uniqueName('Pager').replace(/[^A-Za-z0-9]/g, '');
    // 60 hidden meetups a day before the open one: more than one batch of the list query
    const hidden = await app.knex('events_events').insert(
      Array.from({ length: 60 }, (_, i) => ({
        kind: 'meetup',
        title: `${tag} hidden ${i}`,
        description: 'x',
        location: 'x',
        date_time: new Date(Date.now() + 10 * 86_400_000 + i * 60_000),
        time_zone: 'UTC',
        organizer_id: other.me.id,
        community_id: hiddenCommunity,
      })),
    ).returning('id');
    expect(hidden.length).to.equal(60);
    const openCommunity = await makeCommunity(other, [outsider]);
    const visible = await makeMeetup(other, openCommunity, { title: `${tag} open`, date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) });
    const page = await outsider.get(`/api/meetups?q=${tag}&limit=1`);
    expect(page.status).to.equal(200);
    expect(ids(page.body)).to.deep.equal([visible.id]);
    expect((await other.get(`/api/meetups?q=${tag}&limit=5`)).body.length).to.equal(5);
  });

  it('frees the seats of non-members when a community turns private, and of a member who leaves it', async () => {
    const owner = await app.user({ role: 'Ambassador' });
    const [stays, leaves, guest] = await Promise.all([app.user(), app.user(), app.user()]);
    const cid = await makeCommunity(owner, [stays, leaves]);
    const m = await makeMeetup(owner, cid, { title: `${word} feed`, whoCanJoin: 'anyone', maxAttendees: 3, enableWaitlist: true });
    for (const c of [stays, leaves, guest]) expect((await c.post(`/api/meetups/${m.id}/join`, { status: 'attending' })).status).to.equal(200);
    const feed = async (c: SignedInClient) => (await c.get((await c.post('/api/calendar/token')).body.url)).text;
    expect(await feed(guest)).to.contain(`${word} feed`);
    const seat = async (c: SignedInClient) => (await app.knex('events_attendees').where({ event_id: m.id, user_id: c.me.id }).first('status'))?.status ?? null;

    // the guest (never a member) loses the seat with the sight of the meetup; members keep theirs
    expect((await owner.patch(`/api/communities/${cid}`, { membershipType: 'private' })).status).to.equal(200);
    expect(await seat(guest)).to.equal(null);
    expect(await seat(stays)).to.equal('attending');
    expect((await app.knex('events_events').where({ id: m.id }).first('current_attendees')).current_attendees).to.equal(2);
    expect((await guest.get(`/api/meetups/${m.id}`)).status).to.equal(404);
    expect(await feed(guest)).not.to.contain(`${word} feed`);
    expect(await feed(stays)).to.contain(`${word} feed`);

    // a member leaving a private community gives up even "anyone" meetups (they could not see them)
    expect((await leaves.post(`/api/communities/${cid}/leave`)).status).to.equal(200);
    expect(await seat(leaves)).to.equal(null);
    expect(await seat(stays)).to.equal('attending');
    expect(await feed(leaves)).not.to.contain(`${word} feed`);
  });

  it('keeps a meetup out of the calendar feed of an attendee who may not see it', async () => {
    // not reachable through the API any more (seats go with the membership), so the row is written here
    await app.knex('events_attendees').insert({ event_id: inCommunity.id, user_id: outsider.me.id, status: 'interested' });
    try {
      const token = (await outsider.post('/api/calendar/token')).body.url;
      const r = await outsider.get(token);
      expect(r.status).to.equal(200);
      expect(r.text).not.to.contain(inCommunity.title);
      const mine = (await member.get((await member.post('/api/calendar/token')).body.url)).text;
      expect(mine).to.contain(inCommunity.title);
    } finally {
      await app.knex('events_attendees').where({ event_id: inCommunity.id, user_id: outsider.me.id }).del();
    }
  });

  it('still shows meetups of open communities to every signed-in member', async () => {
    const owner = await app.user({ role: 'Ambassador' });
    const cid = await makeCommunity(owner);
    const m = await makeMeetup(owner, cid, { title: `${word} open day` });
    expect((await outsider.get(`/api/meetups/${m.id}`)).status).to.equal(200);
    expect(ids((await outsider.get(`/api/communities/${cid}/meetups`)).body)).to.deep.equal([m.id]);
    expect(ids((await outsider.get(`/api/search/events?q=${word}`)).body)).to.deep.equal([m.id]);
  });
});
