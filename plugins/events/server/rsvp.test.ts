import { expect } from 'chai';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { all, makeCommunity, makeMeetup } from './test-helpers.ts';

describe('events: RSVP, capacity and waitlist', () => {
  let app: TestApp;
  let organizer: SignedInClient;
  let a: SignedInClient;
  let b: SignedInClient;
  let c: SignedInClient;
  let outsider: SignedInClient;
  let communityId: number;
  const rsvpEvents: any[] = [];

  before(async () => {
    app = await sharedApp();
    [organizer, a, b, c, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user(), app.user(), app.user()]);
    communityId = await makeCommunity(organizer, [a, b, c]);
    app.events.on('events.rsvp.changed', (p) => {
      rsvpEvents.push(p);
    });
  });

  it('joins, answers currentAttendees, userStatus and attendees; the same status again changes nothing', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 5 });
    const r = await a.post(`/api/meetups/${m.id}/join`, { status: 'attending' });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ currentAttendees: 1, userStatus: 'attending', spotsLeft: 4, isFull: false });
    expect(r.body.attendees.map((x: any) => x.userId)).to.deep.equal([a.me.id]);
    expect(r.body.attendees[0].user.username).to.equal(a.me.username);
    expect(rsvpEvents.some((e) => e.eventId === m.id && e.userId === a.me.id && e.status === 'attending' && e.previousStatus === null && e.reason === 'joined')).to.equal(true);

    const again = await a.post(`/api/meetups/${m.id}/join`, {}); // default status attending
    expect(again.status).to.equal(200);
    expect(again.body).to.include({ currentAttendees: 1, userStatus: 'attending' });

    const seenByOther = await b.get(`/api/meetups/${m.id}`);
    expect(seenByOther.body.userStatus).to.equal(null);
    expect(seenByOther.body.currentAttendees).to.equal(1);
  });

  it('cancels with DELETE …/join', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 5 });
    await a.post(`/api/meetups/${m.id}/join`, {});
    const r = await a.del(`/api/meetups/${m.id}/join`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ currentAttendees: 0, userStatus: null });
    expect(r.body.attendees).to.deep.equal([]);
    const twice = await a.del(`/api/meetups/${m.id}/join`);
    expect(twice.status).to.equal(200);
    expect(twice.body.currentAttendees).to.equal(0);
    expect(rsvpEvents.some((e) => e.eventId === m.id && e.userId === a.me.id && e.status === null && e.reason === 'left')).to.equal(true);
  });

  it('answers 409 Full at capacity', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 2 });
    expect((await a.post(`/api/meetups/${m.id}/join`, {})).status).to.equal(200);
    const second = await b.post(`/api/meetups/${m.id}/join`, {});
    expect(second.body).to.include({ currentAttendees: 2, isFull: true, spotsLeft: 0 });
    const third = await c.post(`/api/meetups/${m.id}/join`, {});
    expect(third.status).to.equal(409);
    expect(third.body.message).to.equal('Full');
    const seen = await c.get(`/api/meetups/${m.id}`);
    expect(seen.body).to.include({ isFull: true, userStatus: null, currentAttendees: 2 });
  });

  it('offers waitlist places when the meetup has a waitlist, promoted in order', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 1, enableWaitlist: true });
    await a.post(`/api/meetups/${m.id}/join`, {});
    const wb = await b.post(`/api/meetups/${m.id}/join`, {});
    expect(wb.body).to.include({ userStatus: 'waitlisted', waitlistPosition: 1, waitlistCount: 1, currentAttendees: 1 });
    const wc = await c.post(`/api/meetups/${m.id}/join`, {});
    expect(wc.body).to.include({ userStatus: 'waitlisted', waitlistPosition: 2, waitlistCount: 2 });
    expect(wc.body.attendees.map((x: any) => x.userId)).to.deep.equal([a.me.id]);
    // joining again while waiting changes nothing
    expect((await b.post(`/api/meetups/${m.id}/join`, {})).body.waitlistPosition).to.equal(1);

    await a.del(`/api/meetups/${m.id}/join`);
    const nowB = await b.get(`/api/meetups/${m.id}`);
    expect(nowB.body).to.include({ userStatus: 'attending', currentAttendees: 1, waitlistCount: 1 });
    const nowC = await c.get(`/api/meetups/${m.id}`);
    expect(nowC.body).to.include({ userStatus: 'waitlisted', waitlistPosition: 1 });
    expect(rsvpEvents.some((e) => e.eventId === m.id && e.userId === b.me.id && e.reason === 'promoted' && e.previousStatus === 'waitlisted')).to.equal(true);

    // leaving the waitlist frees no seat
    await c.del(`/api/meetups/${m.id}/join`);
    const after = await b.get(`/api/meetups/${m.id}`);
    expect(after.body).to.include({ currentAttendees: 1, waitlistCount: 0 });
  });

  it('raising the capacity seats the waitlist; lowering it below the attendees is refused', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 1, enableWaitlist: true });
    await a.post(`/api/meetups/${m.id}/join`, {});
    await b.post(`/api/meetups/${m.id}/join`, {});
    await c.post(`/api/meetups/${m.id}/join`, {});
    const body = { title: m.title, description: m.description, location: m.location, date: m.date, startTime: m.startTime, endTime: m.endTime, timeZone: m.timeZone, enableWaitlist: true };
    const raised = await organizer.put(`/api/meetups/${m.id}`, { ...body, maxAttendees: 2 });
    expect(raised.status, raised.text).to.equal(200);
    expect(raised.body).to.include({ currentAttendees: 2, waitlistCount: 1 });
    expect(raised.body.attendees.map((x: any) => x.userId)).to.deep.equal([a.me.id, b.me.id]);
    const lowered = await organizer.put(`/api/meetups/${m.id}`, { ...body, maxAttendees: 1 });
    expect(lowered.status).to.equal(409);
    expect(lowered.body.message).to.equal('Capacity cannot be lower than the number of attendees (2)');
    const unlimited = await organizer.put(`/api/meetups/${m.id}`, { ...body, maxAttendees: null });
    expect(unlimited.body).to.include({ currentAttendees: 3, waitlistCount: 0, maxAttendees: null, isFull: false });
  });

  it('members-only meetups are for members; anyone-meetups for every member of Curio', async () => {
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 5 });
    const r = await outsider.post(`/api/meetups/${m.id}/join`, {});
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('Only members of this community can join this meetup');
    const open = await makeMeetup(organizer, communityId, { whoCanJoin: 'anyone' });
    expect((await outsider.post(`/api/meetups/${open.id}/join`, {})).body.userStatus).to.equal('attending');
    expect((await app.client().post(`/api/meetups/${m.id}/join`, {})).status).to.equal(401);
  });

  it('interested is for museum events only; bad statuses are refused', async () => {
    const m = await makeMeetup(organizer, communityId);
    const r = await a.post(`/api/meetups/${m.id}/join`, { status: 'interested' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('Interested is only available for museum events');
    const bad = await a.post(`/api/meetups/${m.id}/join`, { status: 'maybe' });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('Status must be attending or interested');
  });

  it('only future meetups can be joined or left', async () => {
    const m = await makeMeetup(organizer, communityId);
    await a.post(`/api/meetups/${m.id}/join`, {});
    await app.knex('events_events').where({ id: m.id }).update({ date_time: new Date(Date.now() - 60_000), end_date_time: null });
    const join = await b.post(`/api/meetups/${m.id}/join`, {});
    expect(join.status).to.equal(409);
    expect(join.body.message).to.equal('This event has already started');
    const leave = await a.del(`/api/meetups/${m.id}/join`);
    expect(leave.status).to.equal(409);
    const seen = await a.get(`/api/meetups/${m.id}`);
    expect(seen.body).to.include({ isJoinable: false, status: 'ongoing', userStatus: 'attending', currentAttendees: 1 });
  });

  it('attendees hear about changes, cancellations and seats freed from the waitlist (event_reminder)', async () => {
    const m = await makeMeetup(organizer, communityId, { title: 'Notify me', maxAttendees: 1, enableWaitlist: true });
    await a.post(`/api/meetups/${m.id}/join`, {});
    await b.post(`/api/meetups/${m.id}/join`, {}); // waitlisted
    const titles = async (u: SignedInClient) => ((await u.get('/api/notifications?limit=50')).body.items as any[]).map((n) => `${n.title}|${n.message}`);
    await a.del(`/api/meetups/${m.id}/join`);
    expect((await titles(b)).some((x) => x.startsWith('You have a seat|') && x.includes('Notify me'))).to.equal(true);
    const body = { title: m.title, description: m.description, location: 'A new place', date: m.date, startTime: '19:00', endTime: '21:00', timeZone: m.timeZone, maxAttendees: 1, enableWaitlist: true };
    expect((await organizer.put(`/api/meetups/${m.id}`, body)).status).to.equal(200);
    expect((await titles(b)).some((x) => x.startsWith('Meetup updated|') && x.includes('A new place'))).to.equal(true);
    expect((await titles(organizer)).some((x) => x.startsWith('Meetup updated|'))).to.equal(false); // not the one who changed it
    expect((await organizer.del(`/api/meetups/${m.id}`)).status).to.equal(200);
    expect((await titles(b)).some((x) => x.startsWith('Meetup cancelled|') && x.includes('Notify me'))).to.equal(true);
  });

  it('a deleted account gives its seat to the waitlist', async () => {
    const leaver = await app.user();
    await leaver.post(`/api/communities/${communityId}/join`, {});
    const m = await makeMeetup(organizer, communityId, { maxAttendees: 1, enableWaitlist: true });
    await leaver.post(`/api/meetups/${m.id}/join`, {});
    await a.post(`/api/meetups/${m.id}/join`, {});
    const del = await leaver.del('/api/user/account');
    expect(del.status, del.text).to.equal(200);
    const seen = await a.get(`/api/meetups/${m.id}`);
    expect(seen.body).to.include({ userStatus: 'attending', currentAttendees: 1, waitlistCount: 0 });
    expect(seen.body.attendees.map((x: any) => x.userId)).to.deep.equal([a.me.id]);
  });

  describe('under concurrency', function () {
    this.timeout(600_000);
    let crowd: SignedInClient[];
    let crowdCommunity: number;

    before(async () => {
      crowd = [];
      // sign 200 members up, 20 at a time
      for (let i = 0; i < 10; i++) crowd.push(...(await all(20, () => app.user())));
      crowdCommunity = await makeCommunity(organizer, []);
    });

    /**
     * A request that survives a keep-alive socket closed by the server just as the client reused
     * it ("other side closed", a transport race of Node's HTTP stack under this load). Joining and
     * leaving are idempotent, so sending again answers the member's true final state.
     */
    async function send(fn: () => Promise<any>): Promise<any> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fn();
        } catch (e: any) {
          if (attempt >= 2 || !/fetch failed/.test(String(e?.message))) throw e;
        }
      }
    }

    async function exactCount(id: number) {
      const row = await app.knex('events_events').where({ id }).first('current_attendees', 'max_attendees');
      const seated = await app.knex('events_attendees').where({ event_id: id, status: 'attending' }).count({ n: '*' }).first();
      return { current: row.current_attendees, seated: Number(seated!.n), max: row.max_attendees };
    }

    for (let round = 1; round <= 3; round++) {
      it(`200 simultaneous joins to a 20-seat meetup seat exactly 20, the rest hear 409 Full (round ${round})`, async () => {
        const m = await makeMeetup(organizer, crowdCommunity, { maxAttendees: 20, whoCanJoin: 'anyone' });
        const answers = await Promise.all(crowd.map((u) => send(() => u.post(`/api/meetups/${m.id}/join`, { status: 'attending' }))));
        const ok = answers.filter((r) => r.status === 200);
        const full = answers.filter((r) => r.status === 409);
        expect(ok.length).to.equal(20);
        expect(full.length).to.equal(180);
        expect(full.every((r) => r.body.message === 'Full')).to.equal(true);
        expect(ok.every((r) => r.body.userStatus === 'attending' && r.body.currentAttendees <= 20)).to.equal(true);
        expect(await exactCount(m.id)).to.deep.equal({ current: 20, seated: 20, max: 20 });
        const seen = await organizer.get(`/api/meetups/${m.id}`);
        expect(seen.body).to.include({ currentAttendees: 20, isFull: true });
        expect(seen.body.attendees).to.have.length(20);
      });
    }

    it('one member joining 10 times at once holds one seat, or one waitlist place (the RSVP statement reads after its lock)', async () => {
      const m = await makeMeetup(organizer, crowdCommunity, { maxAttendees: 2, whoCanJoin: 'anyone', enableWaitlist: true });
      const [u, v, w] = crowd;
      const seats = await Promise.all(Array.from({ length: 10 }, () => send(() => u.post(`/api/meetups/${m.id}/join`, {}))));
      expect(seats.map((r) => `${r.status} ${r.body.userStatus}`)).to.deep.equal(Array(10).fill('200 attending'));
      expect(await exactCount(m.id)).to.deep.equal({ current: 1, seated: 1, max: 2 });
      expect((await send(() => v.post(`/api/meetups/${m.id}/join`, {}))).body).to.include({ userStatus: 'attending', currentAttendees: 2, isFull: true });
      const places = await Promise.all(Array.from({ length: 10 }, () => send(() => w.post(`/api/meetups/${m.id}/join`, {}))));
      expect(places.map((r) => `${r.status} ${r.body.userStatus} ${r.body.waitlistPosition}`)).to.deep.equal(Array(10).fill('200 waitlisted 1'));
      expect(await app.knex('events_attendees').where({ event_id: m.id, status: 'waitlisted' }).pluck('user_id')).to.deep.equal([w.me.id]);
      expect(await exactCount(m.id)).to.deep.equal({ current: 2, seated: 2, max: 2 });
    });

    for (let round = 1; round <= 3; round++) {
      it(`concurrent cancellations promote the waitlist in order, never past capacity (round ${round})`, async () => {
        const m = await makeMeetup(organizer, crowdCommunity, { maxAttendees: 20, whoCanJoin: 'anyone', enableWaitlist: true });
        const joiners = crowd.slice(0, 80);
        const answers = await Promise.all(joiners.map((u) => send(() => u.post(`/api/meetups/${m.id}/join`, {}))));
        expect(answers.every((r) => r.status === 200)).to.equal(true);
        expect(answers.filter((r) => r.body.userStatus === 'attending').length).to.equal(20);
        const positions = answers.filter((r) => r.body.userStatus === 'waitlisted').map((r) => r.body.waitlistPosition);
        expect(positions).to.have.length(60);
        expect(new Set(positions).size).to.equal(60); // distinct places 1…60
        expect(Math.min(...positions)).to.equal(1);
        expect(Math.max(...positions)).to.equal(60);

        const waitOrder = (await app.knex('events_attendees').where({ event_id: m.id, status: 'waitlisted' }).orderBy('waitlist_seq').pluck('user_id')) as number[];
        const seated = joiners.filter((u, i) => answers[i].body.userStatus === 'attending');
        // 10 seated members and 5 waiting ones cancel at once, while 20 others try to join
        const leavers = seated.slice(0, 10);
        const waitingLeavers = joiners.filter((u) => waitOrder.slice(0, 5).includes(u.me.id));
        const lateJoiners = crowd.slice(80, 100);
        const results = await Promise.all([
          ...leavers.map((u) => send(() => u.del(`/api/meetups/${m.id}/join`))),
          ...waitingLeavers.map((u) => send(() => u.del(`/api/meetups/${m.id}/join`))),
          ...lateJoiners.map((u) => send(() => u.post(`/api/meetups/${m.id}/join`, {}))),
        ]);
        expect(results.every((r) => r.status === 200)).to.equal(true);
        expect(await exactCount(m.id)).to.deep.equal({ current: 20, seated: 20, max: 20 });
        // The 10 freed seats went to the first 10 who were still waiting, in waitlist order
        // (late joiners queue behind, so they can only be seated after everyone before them).
        const leftIds = new Set(waitingLeavers.map((u) => u.me.id));
        const stillWaitingBefore = waitOrder.filter((id) => !leftIds.has(id));
        const nowSeated = new Set((await app.knex('events_attendees').where({ event_id: m.id, status: 'attending' }).pluck('user_id')) as number[]);
        const promoted = stillWaitingBefore.filter((id) => nowSeated.has(id));
        expect(promoted.length).to.equal(10);
        expect(promoted).to.deep.equal(stillWaitingBefore.slice(0, 10));
        for (const u of lateJoiners) expect(nowSeated.has(u.me.id)).to.equal(false);
        const waitingNow = (await app.knex('events_attendees').where({ event_id: m.id, status: 'waitlisted' }).orderBy('waitlist_seq').pluck('user_id')) as number[];
        expect(waitingNow.slice(0, stillWaitingBefore.length - 10)).to.deep.equal(stillWaitingBefore.slice(10));
        expect(waitingNow).to.have.length(60 - 5 - 10 + 20);
      });
    }
  });
});
