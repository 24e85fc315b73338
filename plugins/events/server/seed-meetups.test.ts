import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../../core/config.ts';
import { sharedApp, startTestApp, type TestApp } from '../../../core/testing/index.ts';
import { instantToZoned } from '../shared/time.ts';

const progress = { start() {}, tick() {} };
const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8'));

/** Today + days in `tz`, YYYY-MM-DD. */
function localDate(tz: string, days: number): string {
  const d = new Date(`${instantToZoned(new Date(), tz).date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe('events: sample meetups (seed)', () => {
  let app: TestApp;
  const meetups = read('seeds/events/meetups.json').meetups as any[];
  const users = read('seeds/accounts/users.json').users as any[];
  const communities = read('seeds/communities/communities.json').communities as any[];

  before(async () => {
    app = await sharedApp();
    // the seeds run in plugin dependency order: accounts, communities, events
    for (const id of ['accounts', 'communities', 'events']) await app.servers.get(id)!.seed!(app.contexts.get(id)!, progress);
  });

  it('ships meetups of the sample communities organized by sample Ambassadors who may create them', () => {
    expect(meetups.length).to.be.at.least(3);
    for (const m of meetups) {
      const organizer = users.find((u) => u.username === m.organizer);
      expect(organizer?.role, m.key).to.equal('Ambassador');
      const community = communities.find((c) => c.name === m.community);
      expect(community, m.key).to.not.equal(undefined);
      expect(community.members, m.key).to.include(m.organizer);
      for (const a of m.attendees ?? []) expect(community.members, `${m.key}: ${a}`).to.include(a);
      expect(m.daysFromNow, m.key).to.be.greaterThan(0);
    }
  });

  it('loads them once, to come, at their local times, with their attendees counted exactly', async () => {
    for (const m of meetups) {
      const rows = await app.knex('events_events').where({ seed_key: `meetup:${m.key}` });
      expect(rows, m.key).to.have.length(1);
      const r = rows[0];
      expect(r.kind).to.equal('meetup');
      expect(new Date(r.date_time).getTime()).to.be.greaterThan(Date.now());
      const local = instantToZoned(new Date(r.date_time), m.timeZone);
      expect(r.time_zone).to.equal(m.timeZone);
      expect(local).to.deep.include({ date: localDate(m.timeZone, m.daysFromNow), time: m.startTime });
      const organizer = await app.knex('users').where({ id: r.organizer_id }).first('username', 'role');
      expect(organizer).to.deep.equal({ username: m.organizer, role: 'Ambassador' });
      const community = await app.knex('communities').where({ id: r.community_id }).first('name');
      expect(community.name).to.equal(m.community);
      const attending = await app.knex('events_attendees as a').join('users as u', 'u.id', 'a.user_id').where({ 'a.event_id': r.id, 'a.status': 'attending' }).pluck('u.username');
      expect(attending, m.key).to.have.members(m.attendees ?? []);
      expect(r.current_attendees).to.equal(attending.length);
    }

    const count = async () => ({
      events: Number((await app.knex('events_events').count({ n: '*' }))[0].n),
      attendees: Number((await app.knex('events_attendees').count({ n: '*' }))[0].n),
    });
    const before = await count();
    await app.servers.get('events')!.seed!(app.contexts.get('events')!, progress);
    expect(await count()).to.deep.equal(before);
  });

  it("seeds into its own app's database after another app in the same process has come and gone", async function () {
    this.timeout(180_000);
    // the plugin once kept one store per process: a second app replaced it, and after that app
    // closed the first app's seed wrote through a destroyed pool ("Unable to acquire a connection")
    const other = await startTestApp();
    await other.close();
    const key = `meetup:${meetups[0].key}`;
    await app.knex('events_events').where({ seed_key: key }).del();
    await app.servers.get('events')!.seed!(app.contexts.get('events')!, progress);
    expect(await app.knex('events_events').where({ seed_key: key })).to.have.length(1);
  });

  it('shows them through the API like any meetup: to members, and those of the private community to its members only', async () => {
    const open = meetups.find((m) => communities.find((c) => c.name === m.community)?.membershipType === 'open')!;
    const closed = meetups.find((m) => communities.find((c) => c.name === m.community)?.membershipType === 'private')!;
    const openRow = await app.knex('events_events').where({ seed_key: `meetup:${open.key}` }).first();
    const closedRow = await app.knex('events_events').where({ seed_key: `meetup:${closed.key}` }).first();
    const visitor = await app.user();
    const listed = await visitor.get(`/api/communities/${openRow.community_id}/meetups`);
    expect(listed.status).to.equal(200);
    const seen = listed.body.find((e: any) => e.id === openRow.id);
    expect(seen).to.include({ title: open.title, startTime: open.startTime, timeZone: open.timeZone });
    expect(seen.organizer.username).to.equal(open.organizer);
    expect((await visitor.get(`/api/meetups/${closedRow.id}`)).status).to.equal(404);
  });
});
