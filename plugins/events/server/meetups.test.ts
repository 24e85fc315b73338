import { expect } from 'chai';
import { sharedApp, setDeletionPending, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { futureDate, makeCommunity, makeMeetup, makeMuseum, meetupBody } from './test-helpers.ts';

describe('events: meetups (create, list, edit, delete, validation)', () => {
  let app: TestApp;
  let creator: SignedInClient; // Ambassador who created the community
  let ambassador: SignedInClient; // Ambassador member
  let member: SignedInClient; // Traveler member
  let outsiderAmbassador: SignedInClient;
  let outsider: SignedInClient;
  let communityId: number;

  before(async () => {
    app = await sharedApp();
    [creator, ambassador, member, outsiderAmbassador, outsider] = await Promise.all([
      app.user({ role: 'Ambassador' }),
      app.user({ role: 'Ambassador' }),
      app.user(),
      app.user({ role: 'Ambassador' }),
      app.user(),
    ]);
    communityId = await makeCommunity(creator, [ambassador, member]);
  });

  describe('POST /api/communities/{id}/meetups', () => {
    it('lets the community creator create a meetup, with the form defaults', async () => {
      const r = await creator.post(`/api/communities/${communityId}/meetups`, {
        ...meetupBody({ date: '2031-07-01', startTime: '19:30', endTime: '21:00' }),
        communityId,
        organizerId: 999999, // ignored: the organizer is the signed-in member
      });
      expect(r.status, r.text).to.equal(201);
      const m = r.body;
      expect(m.kind).to.equal('meetup');
      expect(m.organizerId).to.equal(creator.me.id);
      expect(m.organizer.username).to.equal(creator.me.username);
      expect(m.communityId).to.equal(communityId);
      expect(m.community.id).to.equal(communityId);
      expect(m).to.include({ cost: 'free', costAmount: null, price: 0, collaborationStatus: 'discussion', whoCanJoin: 'members_only', allowPhotoSharing: true, allowComments: true, enableWaitlist: false, rsvpRequired: false, canMuseumPromote: false, connectToMuseumEvent: false });
      expect(m.maxAttendees).to.equal(null);
      expect(m.currentAttendees).to.equal(0);
      expect(m.attendees).to.deep.equal([]);
      expect(m.userStatus).to.equal(null);
      expect(m.canEdit).to.equal(true);
      // 19:30 in Paris in July is 17:30 UTC; the local form fields come back as entered.
      expect(m.dateTime).to.equal('2031-07-01T17:30:00.000Z');
      expect(m.endDateTime).to.equal('2031-07-01T19:00:00.000Z');
      expect(m).to.include({ date: '2031-07-01', startTime: '19:30', endTime: '21:00', timeZone: 'Europe/Paris', status: 'upcoming', isJoinable: true });
      const row = await app.knex('events_events').where({ id: m.id }).first();
      expect(new Date(row.date_time).toISOString()).to.equal('2031-07-01T17:30:00.000Z');
    });

    it('lets an Ambassador who is a member create one', async () => {
      const m = await makeMeetup(ambassador, communityId);
      expect(m.organizerId).to.equal(ambassador.me.id);
    });

    it('refuses members without the Ambassador role, Ambassadors outside the community, and visitors', async () => {
      const traveler = await member.post(`/api/communities/${communityId}/meetups`, meetupBody());
      expect(traveler.status).to.equal(403);
      expect(traveler.body.message).to.equal('Only community ambassadors can create meetups.');
      const stranger = await outsiderAmbassador.post(`/api/communities/${communityId}/meetups`, meetupBody());
      expect(stranger.status).to.equal(403);
      expect(stranger.body.message).to.equal('Join this community to create meetups in it');
      const anon = await app.client().post(`/api/communities/${communityId}/meetups`, meetupBody());
      expect(anon.status).to.equal(401);
      const missing = await creator.post('/api/communities/987654/meetups', meetupBody());
      expect(missing.status).to.equal(404);
      expect(missing.body.message).to.equal('Community not found');
    });

    it('says which required field is missing, in the spec’s words', async () => {
      const r = await creator.post(`/api/communities/${communityId}/meetups`, {});
      expect(r.status).to.equal(400);
      const messages = r.body.errors.map((e: any) => e.message);
      expect(messages).to.include.members(['Title is required', 'Description is required', 'Location is required', 'Date is required', 'Start time is required']);
      const byField = Object.fromEntries(r.body.errors.map((e: any) => [e.path, e.message]));
      expect(byField['/body/title']).to.equal('Title is required');
      expect(byField['/body/startTime']).to.equal('Start time is required');

      for (const [field, message] of [
        ['title', 'Title is required'],
        ['description', 'Description is required'],
        ['location', 'Location is required'],
        ['date', 'Date is required'],
        ['startTime', 'Start time is required'],
      ]) {
        const blank = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ [field]: field === 'date' || field === 'startTime' ? '' : '   ' }));
        expect(blank.status, field).to.equal(400);
        expect(blank.body.message, field).to.equal(message);
      }
    });

    it('requires the end time to be after the start time', async () => {
      for (const endTime of ['17:00', '18:00']) {
        const r = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ startTime: '18:00', endTime }));
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('End time must be after start time');
      }
      const none = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ endTime: '' }));
      expect(none.status).to.equal(201);
      expect(none.body.endTime).to.equal(null);
      expect(none.body.endDateTime).to.equal(null);
    });

    it('takes costAmount only, and always, when the cost is paid; money is stored in cents', async () => {
      const missing = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ cost: 'paid' }));
      expect(missing.status).to.equal(400);
      expect(missing.body.message).to.equal('Cost amount is required when cost is paid');
      const notPaid = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ cost: 'donation', costAmount: 5 }));
      expect(notPaid.status).to.equal(400);
      expect(notPaid.body.message).to.equal('Cost amount is only allowed when cost is paid');
      for (const bad of [0, -3, 1.005, 'abc']) {
        const r = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ cost: 'paid', costAmount: bad }));
        expect(r.status, String(bad)).to.equal(400);
        expect(r.body.message).to.equal('Cost amount must be a positive amount with at most 2 decimals');
      }
      const ok = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ cost: 'paid', costAmount: '12.50' }));
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.costAmount).to.equal(12.5);
      expect(ok.body.price).to.equal(12.5);
      const row = await app.knex('events_events').where({ id: ok.body.id }).first('cost_amount_cents');
      expect(row.cost_amount_cents).to.equal(1250);
      const donation = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ cost: 'donation', costAmount: '' }));
      expect(donation.status).to.equal(201);
      expect(donation.body.price).to.equal(0);
    });

    it('rejects unknown zones, impossible dates and starts in the past', async () => {
      const zone = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ timeZone: 'Mars/Olympus' }));
      expect(zone.status).to.equal(400);
      expect(zone.body.message).to.equal('Unknown time zone');
      const impossible = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ date: '2031-02-30' }));
      expect(impossible.status).to.equal(400);
      expect(impossible.body.message).to.equal('Date must be a date (YYYY-MM-DD)');
      const past = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ date: '2020-01-01' }));
      expect(past.status).to.equal(400);
      expect(past.body.message).to.equal('The date and start time must be in the future');
      const badTime = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ startTime: '25:00' }));
      expect(badTime.status).to.equal(400);
      expect(badTime.body.message).to.equal('Start time must be a time (HH:MM)');
      const cap = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ maxAttendees: 0 }));
      expect(cap.status).to.equal(400);
      expect(cap.body.message).to.equal('Maximum attendees must be at least 1');
    });

    it('reads dates in the museum’s zone when no zone is given, and links museum events', async () => {
      const museum = await makeMuseum(app, { timezone: 'Asia/Tokyo', city: 'Tokyo', country: 'Japan' });
      const r = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ timeZone: undefined, museumId: museum.id, date: '2031-03-10', startTime: '10:00', endTime: '12:00' }));
      expect(r.status, r.text).to.equal(201);
      expect(r.body.timeZone).to.equal('Asia/Tokyo');
      expect(r.body.dateTime).to.equal('2031-03-10T01:00:00.000Z');
      expect(r.body.museum).to.include({ id: museum.id, slug: museum.slug });

      const unknownMuseum = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ museumId: 99999999 }));
      expect(unknownMuseum.status).to.equal(400);
      expect(unknownMuseum.body.message).to.equal('Museum not found');

      const connectWithout = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody({ connectToMuseumEvent: true }));
      expect(connectWithout.status).to.equal(400);
      expect(connectWithout.body.message).to.equal('Choose the museum event to connect to');
    });

    it('splits tags entered as one text and keeps every form field', async () => {
      const r = await creator.post(
        `/api/communities/${communityId}/meetups`,
        meetupBody({
          tags: ' art, Night , ,art, sketching ',
          expectedGroupSize: '6-10',
          rsvpRequired: true,
          ageRestrictions: '18+',
          museumContact: 'education@orsay.example',
          collaborationStatus: 'confirmed',
          canMuseumPromote: true,
          allowPhotoSharing: false,
          whoCanJoin: 'anyone',
          allowComments: false,
          enableWaitlist: true,
          accessibilityNotes: 'Step-free entrance on the river side',
          rainPlan: 'We stay inside',
          maxAttendees: 12,
        }),
      );
      expect(r.status, r.text).to.equal(201);
      expect(r.body.tags).to.deep.equal(['art', 'Night', 'sketching']);
      expect(r.body).to.include({
        expectedGroupSize: '6-10',
        rsvpRequired: true,
        ageRestrictions: '18+',
        museumContact: 'education@orsay.example',
        collaborationStatus: 'confirmed',
        canMuseumPromote: true,
        allowPhotoSharing: false,
        whoCanJoin: 'anyone',
        allowComments: false,
        enableWaitlist: true,
        accessibilityNotes: 'Step-free entrance on the river side',
        rainPlan: 'We stay inside',
        maxAttendees: 12,
        spotsLeft: 12,
        isFull: false,
      });
    });
  });

  describe('GET /api/meetup-hosts', () => {
    it('lists where I may create meetups: my communities as their creator, or any of mine as an Ambassador', async () => {
      const mine = await creator.get('/api/meetup-hosts');
      expect(mine.status).to.equal(200);
      expect(mine.body).to.deep.include({ kind: 'community', id: communityId, name: mine.body.find((h: any) => h.id === communityId)?.name });
      expect((await ambassador.get('/api/meetup-hosts')).body.map((h: any) => h.id)).to.include(communityId);
      expect((await member.get('/api/meetup-hosts')).body).to.deep.equal([]);
      expect((await outsiderAmbassador.get('/api/meetup-hosts')).body.map((h: any) => h.id)).not.to.include(communityId);
      expect((await app.client().get('/api/meetup-hosts')).status).to.equal(401);
    });
  });

  describe('GET lists', () => {
    it('lists a community’s meetups soonest first, past ones only on request', async () => {
      const c = await makeCommunity(creator, [member]);
      const later = await makeMeetup(creator, c, { title: 'Later one', date: futureDate(40) });
      const sooner = await makeMeetup(creator, c, { title: 'Sooner one', date: futureDate(5) });
      const old = await makeMeetup(creator, c, { title: 'Old one', date: futureDate(6) });
      await app.knex('events_events').where({ id: old.id }).update({ date_time: new Date(Date.now() - 10 * 86_400_000), end_date_time: null });
      const r = await member.get(`/api/communities/${c}/meetups`);
      expect(r.status).to.equal(200);
      expect(r.body.map((m: any) => m.id)).to.deep.equal([sooner.id, later.id]);
      const withPast = await member.get(`/api/communities/${c}/meetups?includePast=true`);
      expect(withPast.body.map((m: any) => m.id)).to.deep.equal([old.id, sooner.id, later.id]);
      expect(withPast.body[0].status).to.equal('past');
      expect(withPast.body[0].isJoinable).to.equal(false);
      expect((await member.get('/api/communities/987654/meetups')).status).to.equal(404);
      expect((await app.client().get(`/api/communities/${c}/meetups`)).status).to.equal(401);
    });

    it('GET /api/meetups lists meetups; scope=mine keeps those of my communities', async () => {
      const c = await makeCommunity(creator, []);
      const m = await makeMeetup(creator, c, { title: 'Only for my circle' });
      const all = await outsider.get('/api/meetups?limit=200');
      expect(all.status).to.equal(200);
      expect(all.body.some((x: any) => x.id === m.id)).to.equal(true);
      const mine = await outsider.get('/api/meetups?scope=mine');
      expect(mine.body.some((x: any) => x.id === m.id)).to.equal(false);
      const creatorMine = await creator.get('/api/meetups?scope=mine&limit=200');
      expect(creatorMine.body.some((x: any) => x.id === m.id)).to.equal(true);
    });

    it('visitors see the meetups of open communities (list, detail, calendar file, photos, discussion) but cannot join or comment (issue 21)', async () => {
      const m = await makeMeetup(creator, communityId, { title: `Open to all ${Date.now().toString(36)}` });
      const visitor = app.client();
      const list = await visitor.get('/api/meetups?limit=200');
      expect(list.status).to.equal(200);
      const card = list.body.find((x: any) => x.id === m.id);
      expect(card).to.include({ kind: 'meetup', title: m.title, userStatus: null, canEdit: false });
      expect((await visitor.get('/api/meetups?scope=mine')).body).to.deep.equal([]);
      const one = await visitor.get(`/api/meetups/${m.id}`);
      expect(one.status, one.text).to.equal(200);
      expect(one.body).to.include({ id: m.id, title: m.title, canEdit: false });
      for (const path of [`/api/meetups/${m.id}/ics`, `/api/meetups/${m.id}/photos`, `/api/meetups/${m.id}/comments`]) expect((await visitor.get(path)).status, path).to.equal(200);
      expect((await visitor.post(`/api/meetups/${m.id}/join`, { status: 'attending' })).status).to.equal(401);
      expect((await visitor.post(`/api/meetups/${m.id}/comments`, { content: 'hi' })).status).to.equal(401);
    });

    it('GET /api/meetups/{id} shows one meetup; unknown ids are 404', async () => {
      const m = await makeMeetup(creator, communityId);
      const r = await member.get(`/api/meetups/${m.id}`);
      expect(r.status).to.equal(200);
      expect(r.body.id).to.equal(m.id);
      expect(r.body.canEdit).to.equal(false);
      expect((await member.get('/api/meetups/99999999')).status).to.equal(404);
    });

    it('filters by from/to (e.g. a weekend) and by text', async () => {
      const c = await makeCommunity(creator, []);
      const a = await makeMeetup(creator, c, { title: 'Zebra sketch walk', date: '2032-05-15', startTime: '10:00', endTime: '11:00', timeZone: 'UTC' });
      await makeMeetup(creator, c, { title: 'Zebra sketch walk two', date: '2032-05-18', startTime: '10:00', endTime: '11:00', timeZone: 'UTC' });
      const r = await creator.get('/api/meetups?from=2032-05-15T00:00:00Z&to=2032-05-17T00:00:00Z');
      expect(r.body.map((x: any) => x.id)).to.include(a.id);
      expect(r.body.every((x: any) => x.dateTime >= '2032-05-15' && x.dateTime < '2032-05-17')).to.equal(true);
      const q = await creator.get('/api/meetups?q=zebra%20sketch&limit=200');
      expect(q.body.length).to.be.at.least(2);
    });
  });

  describe('PUT and DELETE /api/meetups/{id}', () => {
    it('lets only the organizer edit', async () => {
      const m = await makeMeetup(creator, communityId, { title: 'Before' });
      const other = await ambassador.put(`/api/meetups/${m.id}`, meetupBody({ title: 'Hijacked' }));
      expect(other.status).to.equal(403);
      expect(other.body.message).to.equal('Only the organizer can edit this meetup');
      const anon = await app.client().put(`/api/meetups/${m.id}`, meetupBody());
      expect(anon.status).to.equal(401);
      const r = await creator.put(`/api/meetups/${m.id}`, meetupBody({ title: 'After', cost: 'paid', costAmount: 7, maxAttendees: 3, date: '2031-12-24', startTime: '09:00', endTime: '10:00', timeZone: 'America/New_York' }));
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ title: 'After', cost: 'paid', costAmount: 7, maxAttendees: 3, date: '2031-12-24', startTime: '09:00', timeZone: 'America/New_York' });
      expect(r.body.dateTime).to.equal('2031-12-24T14:00:00.000Z');
      const invalid = await creator.put(`/api/meetups/${m.id}`, meetupBody({ title: '' }));
      expect(invalid.status).to.equal(400);
      expect(invalid.body.message).to.equal('Title is required');
      expect((await creator.put('/api/meetups/99999999', meetupBody())).status).to.equal(404);
    });

    it('lets only the organizer delete; the meetup and its RSVPs are gone', async () => {
      const m = await makeMeetup(creator, communityId, { maxAttendees: 5 });
      expect((await member.post(`/api/meetups/${m.id}/join`, { status: 'attending' })).status).to.equal(200);
      const other = await member.del(`/api/meetups/${m.id}`);
      expect(other.status).to.equal(403);
      expect(other.body.message).to.equal('Only the organizer can delete this meetup');
      const r = await creator.del(`/api/meetups/${m.id}`);
      expect(r.status).to.equal(200);
      expect(r.body.success).to.equal(true);
      expect((await member.get(`/api/meetups/${m.id}`)).status).to.equal(404);
      expect(await app.knex('events_attendees').where({ event_id: m.id })).to.have.length(0);
    });
  });

  describe('group meetups', () => {
    it('the group creator or an Ambassador member creates them; group members join; leaving the group frees the seat', async () => {
      const traveler = await app.user();
      const g = await traveler.post('/api/groups', { name: 'Sketchers', description: 'We draw' });
      expect(g.status, g.text).to.equal(201);
      const gid = g.body.id;
      const amb = await app.user({ role: 'Ambassador' });
      const joiner = await app.user();
      for (const u of [amb, joiner]) expect((await u.post(`/api/groups/${gid}/join`, {})).status).to.equal(200);

      const byCreator = await traveler.post(`/api/groups/${gid}/meetups`, meetupBody({ title: 'Group sketch walk', maxAttendees: 3 }));
      expect(byCreator.status, byCreator.text).to.equal(201);
      expect(byCreator.body).to.include({ groupId: gid, communityId: null });
      expect(byCreator.body.group).to.deep.equal({ id: gid, name: 'Sketchers' });
      expect((await amb.post(`/api/groups/${gid}/meetups`, meetupBody())).status).to.equal(201);
      const refused = await joiner.post(`/api/groups/${gid}/meetups`, meetupBody());
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal('Only group ambassadors can create meetups.');
      expect((await outsiderAmbassador.post(`/api/groups/${gid}/meetups`, meetupBody())).status).to.equal(403);
      expect((await traveler.post('/api/groups/99999999/meetups', meetupBody())).status).to.equal(404);

      const list = await joiner.get(`/api/groups/${gid}/meetups`);
      expect(list.status).to.equal(200);
      expect(list.body.map((m: any) => m.title)).to.include('Group sketch walk');
      expect((await joiner.get('/api/meetup-hosts')).body).to.deep.equal([]);
      expect((await amb.get('/api/meetup-hosts')).body.map((h: any) => `${h.kind}:${h.id}`)).to.include(`group:${gid}`);

      const id = byCreator.body.id;
      const outsiderJoin = await outsider.post(`/api/meetups/${id}/join`, {});
      expect(outsiderJoin.status).to.equal(403);
      expect(outsiderJoin.body.message).to.equal('Only members of this group can join this meetup');
      expect((await joiner.post(`/api/meetups/${id}/join`, {})).body.currentAttendees).to.equal(1);
      expect((await joiner.del(`/api/groups/${gid}/leave`)).status).to.equal(200);
      expect((await traveler.get(`/api/meetups/${id}`)).body.currentAttendees).to.equal(0);
    });
  });

  describe('clean-ups', () => {
    it('deleting a community removes its meetups', async () => {
      const c = await makeCommunity(creator, [member]);
      const m = await makeMeetup(creator, c);
      await member.post(`/api/meetups/${m.id}/join`, {});
      const del = await creator.del(`/api/communities/${c}`);
      expect(del.status, del.text).to.equal(200);
      expect(await app.knex('events_events').where({ id: m.id })).to.have.length(0);
    });

    it('a member leaving the community gives up their seat at its members-only meetups', async () => {
      const leaver = await app.user();
      const c = await makeCommunity(creator, [leaver]);
      const m = await makeMeetup(creator, c, { maxAttendees: 2 });
      expect((await leaver.post(`/api/meetups/${m.id}/join`, {})).body.currentAttendees).to.equal(1);
      const left = await leaver.post(`/api/communities/${c}/leave`, {});
      expect(left.status, left.text).to.equal(200);
      const after = await creator.get(`/api/meetups/${m.id}`);
      expect(after.body.currentAttendees).to.equal(0);
      expect(after.body.attendees).to.deep.equal([]);
    });
  });
});

describe("events: meetup lists and pages apply accounts' rule to the organizer (blocks, mutes, pending deletion)", () => {
  let app: TestApp;
  const ids = (body: any) => (body as any[]).map((x) => x.id);
  /** the meetup's presence in every list a member reads it from */
  async function lists(client: any, word: string, communityId: number): Promise<Record<string, number[]>> {
    const out: Record<string, number[]> = {};
    for (const path of [`/api/meetups?q=${word}`, `/api/search/events?q=${word}`, `/api/communities/${communityId}/meetups`]) {
      const r = await client.get(path);
      expect(r.status, `${path} ${r.text}`).to.equal(200);
      out[path] = ids(r.body);
    }
    const all = await client.get(`/api/search?q=${word}`);
    expect(all.status, all.text).to.equal(200);
    out['/api/search'] = ids(all.body.events);
    return out;
  }
  const everywhere = (seen: Record<string, number[]>, id: number) => Object.values(seen).every((xs) => xs.includes(id));
  const nowhere = (seen: Record<string, number[]>, id: number) => Object.values(seen).every((xs) => !xs.includes(id));

  before(async () => {
    app = await sharedApp();
  });

  it('an organizer who blocked the viewer, or whom the viewer blocked: the meetup is left out of every list and its page answers 404', async () => {
    const word = `Blk${Date.now().toString(36)}`;
    const [organizer, blockedByOrganizer, blocker, bystander] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user(), app.user()]);
    const communityId = await makeCommunity(organizer, [blockedByOrganizer, blocker, bystander]);
    const m = await makeMeetup(organizer, communityId, { title: `${word} walk`, whoCanJoin: 'anyone' });
    for (const c of [blockedByOrganizer, blocker]) { const l = await lists(c, word, communityId); expect(everywhere(l, m.id), JSON.stringify(l)).to.equal(true); }

    expect((await organizer.post(`/api/user/${blockedByOrganizer.me.id}/block`, {})).status).to.equal(200);
    expect((await blocker.post(`/api/user/${organizer.me.id}/block`, {})).status).to.equal(200);

    for (const c of [blockedByOrganizer, blocker]) {
      expect(nowhere(await lists(c, word, communityId), m.id), c.me.username).to.equal(true);
      for (const path of [`/api/meetups/${m.id}`, `/api/meetups/${m.id}/ics`, `/api/meetups/${m.id}/photos`, `/api/meetups/${m.id}/comments`]) {
        const r = await c.get(path);
        expect(r.status, `${path} ${c.me.username}`).to.equal(404);
        if (path === `/api/meetups/${m.id}`) expect(r.body.message).to.equal('Meetup not found');
      }
      expect((await c.post(`/api/meetups/${m.id}/join`, { status: 'attending' })).status).to.equal(404);
    }
    expect(everywhere(await lists(bystander, word, communityId), m.id)).to.equal(true);
    expect(everywhere(await lists(organizer, word, communityId), m.id)).to.equal(true);
    expect((await organizer.get(`/api/meetups/${m.id}`)).status).to.equal(200);
    const admin = await app.user({ role: 'Admin' });
    expect((await admin.get(`/api/meetups/${m.id}`)).status).to.equal(200);
  });

  it("a muted organizer's meetup is left out of the lists but its page still opens by its link", async () => {
    const word = `Mut${Date.now().toString(36)}`;
    const [organizer, muter] = await Promise.all([app.user({ role: 'Ambassador' }), app.user()]);
    const communityId = await makeCommunity(organizer, [muter]);
    const m = await makeMeetup(organizer, communityId, { title: `${word} walk` });
    expect(everywhere(await lists(muter, word, communityId), m.id)).to.equal(true);
    expect((await muter.post(`/api/user/${organizer.me.id}/mute`, {})).status).to.equal(200);
    expect(nowhere(await lists(muter, word, communityId), m.id)).to.equal(true);
    const page = await muter.get(`/api/meetups/${m.id}`);
    expect(page.status, page.text).to.equal(200);
    expect(page.body.organizerId).to.equal(organizer.me.id);
  });

  it("an organizer whose deletion is pending: the meetup is hidden (lists and page) from everyone but Admins", async () => {
    const word = `Pnd${Date.now().toString(36)}`;
    const [organizer, member] = await Promise.all([app.user({ role: 'Ambassador' }), app.user()]);
    const admin = await app.user({ role: 'Admin' });
    const communityId = await makeCommunity(organizer, [member]);
    const m = await makeMeetup(organizer, communityId, { title: `${word} walk` });
    expect(everywhere(await lists(member, word, communityId), m.id)).to.equal(true);
    await setDeletionPending(app, organizer.me.id);
    expect(nowhere(await lists(member, word, communityId), m.id)).to.equal(true);
    expect((await member.get(`/api/meetups/${m.id}`)).status).to.equal(404);
    expect((await app.client().get(`/api/meetups/${m.id}`)).status).to.equal(404);
    expect(ids((await app.client().get(`/api/meetups?q=${word}`)).body)).to.not.include(m.id);
    expect(ids((await admin.get(`/api/meetups?q=${word}`)).body)).to.include(m.id);
    expect((await admin.get(`/api/meetups/${m.id}`)).status).to.equal(200);
  });

  it('an attendee whose deletion is pending is not listed, not even to the organizer; Admins still see them', async () => {
    const [organizer, leaving, staying] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    const admin = await app.user({ role: 'Admin' });
    const communityId = await makeCommunity(organizer, [leaving, staying]);
    const m = await makeMeetup(organizer, communityId);
    for (const c of [leaving, staying]) expect((await c.post(`/api/meetups/${m.id}/join`, { status: 'attending' })).status).to.be.oneOf([200, 201]);
    const attendees = async (c: any) => ((await c.get(`/api/meetups/${m.id}`)).body.attendees as any[]).map((a) => a.userId);
    expect(await attendees(organizer)).to.have.members([leaving.me.id, staying.me.id]);
    await setDeletionPending(app, leaving.me.id);
    expect(await attendees(organizer)).to.deep.equal([staying.me.id]);
    expect(await attendees(staying)).to.deep.equal([staying.me.id]);
    expect(await attendees(admin)).to.have.members([leaving.me.id, staying.me.id]);
  });
});
