import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { likeEscape } from '../../../core/util.ts';
import { MuseumsService, SearchRegistry } from '../public.ts';
import type { WeeklyHours } from '../shared/catalog.ts';

const open = (o: string, c: string) => ({ isOpen: true, isByAppointment: false, openTime: o, closeTime: c });
const closed = { isOpen: false, isByAppointment: false };
const appt = { isOpen: true, isByAppointment: true };
const allWeek = (e: object): WeeklyHours => Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, e])) as WeeklyHours;

let app: TestApp;
let member: SignedInClient;

async function makeMuseum(overrides: Record<string, unknown> = {}, by?: SignedInClient) {
  const client = by ?? member;
  const r = await client.post('/api/museums', {
    name: `Museum ${uniqueName('m')}`,
    address: '1 Test Street',
    city: 'Testville',
    country: 'United States',
    state: 'NY',
    zipCode: '10001',
    category: 'Art Museums',
    latitude: 40.7,
    longitude: -74,
    ...overrides,
  });
  expect(r.status, r.text).to.equal(201);
  return r.body;
}

describe('museums API', function () {
  this.timeout(60000);
  before(async () => {
    app = await sharedApp();
    member = await app.user();
  });

  describe('POST /api/museums (create)', () => {
    it('needs a signed-in member', async () => {
      const r = await app.client().post('/api/museums', { name: 'X', address: 'a', city: 'b', country: 'c' });
      expect(r.status).to.equal(401);
    });

    it('names each missing required field with the spec texts', async () => {
      const r = await member.post('/api/museums', {});
      expect(r.status).to.equal(400);
      for (const m of ['Museum name is required', 'Address is required', 'City is required', 'Country is required']) expect(r.body.message).to.include(m);
      const blank = await member.post('/api/museums', { name: '   ', address: 'a', city: 'b', country: 'c' });
      expect(blank.status).to.equal(400);
      expect(blank.body.message).to.equal('Museum name is required');
    });

    it('accepts an empty website and email but refuses invalid ones', async () => {
      const base = { name: uniqueName('Museum '), address: 'a', city: 'b', country: 'France' };
      const badUrl = await member.post('/api/museums', { ...base, website: 'not a url' });
      expect(badUrl.status).to.equal(400);
      expect(badUrl.body.message).to.equal('Invalid URL');
      const badMail = await member.post('/api/museums', { ...base, email: 'nobody@' });
      expect(badMail.status).to.equal(400);
      expect(badMail.body.message).to.equal('Please enter a valid email address');
      const badLat = await member.post('/api/museums', { ...base, latitude: 91, longitude: 0 });
      expect(badLat.body.message).to.equal('Latitude must be between -90 and 90');
      const ok = await member.post('/api/museums', { ...base, website: '', email: '' });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.website).to.equal(null);
      expect(ok.body.email).to.equal(null);
    });

    it('answers slug and id, maps the public category, guesses the time zone, starts unverified', async () => {
      const name = `Musée d'Essai ${uniqueName('x')}`;
      const r = await member.post('/api/museums', { name, address: '2 Rue de Rivoli', city: 'Paris', country: 'France', category: 'natural_history', latitude: 48.86, longitude: 2.33 });
      expect(r.status).to.equal(201);
      expect(r.body.slug).to.match(/^musee-d-essai-x[0-9a-f]+$/);
      expect(r.body.id).to.be.a('number');
      expect(r.body).to.include({ category: 'Science Museums', timezone: 'Europe/Paris', isVerified: false, followerCount: 0, checkInCount: 0 });
      expect(r.body.isOpen).to.equal(false);
      const again = await member.post('/api/museums', { name, address: 'elsewhere', city: 'paris', country: 'France' });
      expect(again.status).to.equal(409);
      expect(again.body.message).to.match(/already exists/);
      const sameNameElsewhere = await member.post('/api/museums', { name, address: '1 Main', city: 'Lyon', country: 'France' });
      expect(sameNameElsewhere.status).to.equal(201);
      expect(sameNameElsewhere.body.slug).to.not.equal(r.body.slug);
    });

    it('the summaries other plugins read carry the time zone (getMuseum, getMuseumSummaries)', async () => {
      const tokyo = await makeMuseum({ name: uniqueName('Tokyo Museum '), city: 'Tokyo', country: 'Japan', timezone: 'Asia/Tokyo', latitude: 35.71, longitude: 139.77, state: null, zipCode: null });
      const lima = await makeMuseum({ name: uniqueName('Lima Museum '), city: 'Lima', country: 'Peru', timezone: 'America/Lima', latitude: -12.05, longitude: -77.04, state: null, zipCode: null });
      const svc = app.services.get(MuseumsService);
      expect((await svc.getMuseum(tokyo.id))?.timezone).to.equal('Asia/Tokyo');
      expect((await svc.getMuseum(lima.slug))?.timezone).to.equal('America/Lima');
      const map = await svc.getMuseumSummaries([tokyo.id, lima.id]);
      expect(map.get(tokyo.id)).to.include({ id: tokyo.id, timezone: 'Asia/Tokyo' });
      expect(map.get(lima.id)).to.include({ id: lima.id, timezone: 'America/Lima' });
    });

    it('refuses an unknown category, amenity or time zone', async () => {
      const base = { name: uniqueName('Museum '), address: 'a', city: 'b', country: 'France' };
      expect((await member.post('/api/museums', { ...base, category: 'Aquariums' })).body.message).to.equal('Please choose a category from the list');
      expect((await member.post('/api/museums', { ...base, amenities: ['jacuzzi'] })).status).to.equal(400);
      expect((await member.post('/api/museums', { ...base, timezone: 'Mars/Olympus' })).body.message).to.equal('Unknown time zone');
    });
  });

  describe('reading museums', () => {
    it('GET /api/museums/slug/{slug} accepts the slug or the id; missing → Museum not found', async () => {
      const m = await makeMuseum();
      const bySlug = await app.client().get(`/api/museums/slug/${m.slug}`);
      expect(bySlug.status).to.equal(200);
      expect(bySlug.body.id).to.equal(m.id);
      expect(bySlug.body).to.not.have.property('isFollowing');
      const byId = await app.client().get(`/api/museums/slug/${m.id}`);
      expect(byId.body.slug).to.equal(m.slug);
      const missing = await app.client().get('/api/museums/slug/no-such-museum-here');
      expect(missing.status).to.equal(404);
      expect(missing.body.message).to.equal('Museum not found');
      expect((await member.get(`/api/museums/slug/${m.slug}`)).body).to.include({ isFollowing: false, hasCheckedInToday: false });
    });

    it('keeps the slug when the museum is renamed', async () => {
      const admin = await app.user({ role: 'Admin' });
      const m = await makeMuseum();
      const r = await admin.patch(`/api/museums/${m.id}/edit`, { name: `${m.name} Renamed` });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.slug).to.equal(m.slug);
      expect((await app.client().get(`/api/museums/slug/${m.slug}`)).body.name).to.equal(`${m.name} Renamed`);
    });

    it('isOpen and openStatus come from the hours in the museum time zone', async () => {
      const always = await makeMuseum({ openingHours: { defaultHours: allWeek(open('00:00', '00:00')) } });
      expect(always).to.include({ isOpen: true, openStatus: 'open' });
      const never = await makeMuseum({ openingHours: { defaultHours: allWeek(closed) } });
      expect(never).to.include({ isOpen: false, openStatus: 'closed' });
      const byAppt = await makeMuseum({ openingHours: { defaultHours: allWeek(appt) } });
      expect(byAppt).to.include({ isOpen: false, openStatus: 'by_appointment' });
      // the per-day text form is accepted and stored structured
      const text = await makeMuseum({ openingHours: { monday: 'Closed', tuesday: '9:15 AM - 5 PM', wednesday: 'By appointment', thursday: '10:00-18:00', friday: '10:00-18:00', saturday: 'closed', sunday: 'closed' } });
      expect(text.openingHours.defaultHours.tuesday).to.deep.equal(open('09:15', '17:00'));
      expect(text.openingHours.defaultHours.wednesday).to.deep.equal(appt);
      expect(text.openingHours.seasonalHours).to.deep.equal([]);
      // a season covering every day of the year replaces the default hours
      const seasonal = await makeMuseum({
        openingHours: { defaultHours: allWeek(closed), seasonalHours: [{ name: 'All year', startDate: '01-01', endDate: '12-31', hours: allWeek(open('00:00', '00:00')) }] },
      });
      expect(seasonal.isOpen).to.equal(true);
    });

    it('lists page by page with category, text and verified filters', async () => {
      const tag = uniqueName('Filt');
      const a = await makeMuseum({ name: `${tag} Alpha`, category: 'History Museums' });
      await makeMuseum({ name: `${tag} Beta`, category: 'Art Museums' });
      await makeMuseum({ name: `${tag} Gamma`, category: 'History Museums' });
      const all = await app.client().get(`/api/museums?q=${tag}&pageSize=2`);
      expect(all.status).to.equal(200);
      expect(all.body).to.include({ total: 3, page: 1, pageSize: 2 });
      expect(all.body.items.map((m: any) => m.name)).to.deep.equal([`${tag} Alpha`, `${tag} Beta`]);
      const page2 = await app.client().get(`/api/museums?q=${tag}&pageSize=2&page=2`);
      expect(page2.body.items.map((m: any) => m.name)).to.deep.equal([`${tag} Gamma`]);
      const hist = await app.client().get(`/api/museums?q=${tag}&category=${encodeURIComponent('History Museums')}`);
      expect(hist.body.total).to.equal(2);
      const admin = await app.user({ role: 'Admin' });
      await app.services.get(MuseumsService).setVerified(a.id, true, admin.me.id);
      const verified = await app.client().get(`/api/museums?q=${tag}&verified=true`);
      expect(verified.body.items.map((m: any) => m.id)).to.deep.equal([a.id]);
      expect((await app.client().get(`/api/museums?q=${tag}&verified=false`)).body.total).to.equal(2);
    });

    it('near=lat,lng sorts by great-circle distance in miles (R = 3959) with one decimal', async () => {
      const tag = uniqueName('Near');
      // Paris → London is about 213.5 miles; Paris → Berlin about 545 miles.
      await makeMuseum({ name: `${tag} London`, latitude: 51.5074, longitude: -0.1278, country: 'United Kingdom' });
      await makeMuseum({ name: `${tag} Berlin`, latitude: 52.52, longitude: 13.405, country: 'Germany' });
      await makeMuseum({ name: `${tag} Paris`, latitude: 48.8566, longitude: 2.3522, country: 'France' });
      await makeMuseum({ name: `${tag} Nowhere`, latitude: null, longitude: null });
      const r = await app.client().get(`/api/museums?q=${tag}&near=48.8566,2.3522`);
      expect(r.status).to.equal(200);
      expect(r.body.items.map((m: any) => m.name)).to.deep.equal([`${tag} Paris`, `${tag} London`, `${tag} Berlin`, `${tag} Nowhere`]);
      const [paris, london, berlin, nowhere] = r.body.items;
      expect(paris.distance).to.equal(0);
      expect(london.distance).to.be.closeTo(213.5, 1);
      expect(berlin.distance).to.be.closeTo(545, 2);
      expect(Math.round(london.distance * 10)).to.equal(london.distance * 10);
      expect(nowhere.distance).to.equal(null);
      const within = await app.client().get(`/api/museums?q=${tag}&near=48.8566,2.3522&radius=300`);
      expect(within.body.total).to.equal(2);
      const bad = await app.client().get('/api/museums?near=north');
      expect(bad.status).to.equal(400);
    });

    it('GET /api/museums/featured?limit=3 answers an array of at most 3, featured first', async () => {
      const r = await app.client().get('/api/museums/featured?limit=3');
      expect(r.status).to.equal(200);
      expect(r.body).to.be.an('array');
      expect(r.body.length).to.be.at.most(3);
      const m = await makeMuseum();
      await app.services.get(MuseumsService).updateMuseum(m.id, { isFeatured: true }, null);
      const after = await app.client().get('/api/museums/featured?limit=3');
      expect(after.body.map((x: any) => x.isFeatured)).to.include(true);
      expect(after.body.some((x: any) => x.id === m.id)).to.equal(true);
      expect(after.body[0].isFeatured).to.equal(true);
    });
  });

  describe('follow and check-in', () => {
    it('follow toggles, needs sign-in, 404 for a missing museum', async () => {
      const m = await makeMuseum();
      const u = await app.user();
      expect((await app.client().post(`/api/museums/${m.id}/follow`)).status).to.equal(401);
      expect((await u.post(`/api/museums/${m.id}/follow`)).body).to.deep.equal({ following: true, followerCount: 1 });
      expect((await u.get(`/api/museums/slug/${m.slug}`)).body.isFollowing).to.equal(true);
      expect(await app.services.get(MuseumsService).followedMuseumIds(u.me.id)).to.include(m.id);
      expect((await u.post(`/api/museums/${m.id}/follow`)).body).to.deep.equal({ following: false, followerCount: 0 });
      expect((await u.post('/api/museums/2147480000/follow')).status).to.equal(404);
    });

    it('check-in answers the record and new counts; a second one the same day is a 409', async () => {
      const m = await makeMuseum({ timezone: 'Asia/Tokyo' });
      const u = await app.user();
      expect((await app.client().post(`/api/museums/${m.id}/checkin`)).status).to.equal(401);
      const r = await u.post(`/api/museums/${m.id}/checkin`);
      expect(r.status).to.equal(201);
      expect(r.body.checkIn).to.include({ museumId: m.id, userId: u.me.id });
      const tokyoDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
      expect(r.body.checkIn.localDate).to.equal(tokyoDay);
      expect(r.body).to.include({ checkInCount: 1, recentCheckInsCount: 1 });
      // Other test files share this app and may have created check-in badges: only the shape is ours to check.
      expect(r.body.badges).to.be.an('array');
      const again = await u.post(`/api/museums/${m.id}/checkin`);
      expect(again.status).to.equal(409);
      expect(again.body.message).to.equal('You have already checked in at this museum today. Come back tomorrow!');
      const view = await u.get(`/api/museums/slug/${m.slug}`);
      expect(view.body).to.include({ checkInCount: 1, recentCheckInsCount: 1, hasCheckedInToday: true });
      expect((await u.post('/api/museums/2147480000/checkin')).status).to.equal(404);
    });

    it('emits museums.museum.checkedIn and answers the badges its handlers earned', async () => {
      const m = await makeMuseum();
      const seen: any[] = [];
      app.events.on('museums.museum.checkedIn', (p) => {
        if (p.museumId !== m.id) return undefined;
        seen.push(p);
        return [{ id: 77, userId: p.userId, earnedAt: '2026-01-01T00:00:00.000Z', badge: { id: 77, name: 'Explorer', description: 'Checked in 1 time', icon: '🏆', color: '#3B82F6' } }, { unrelated: true }];
      });
      const u = await app.user();
      const r = await u.post(`/api/museums/${m.id}/checkin`);
      expect(seen).to.have.length(1);
      expect(seen[0]).to.include({ userId: u.me.id, museumId: m.id, checkInId: r.body.checkIn.id });
      // Badges of the real badges plugin may come too (other files create badges in this shared app).
      expect(r.body.badges).to.deep.include({ id: 77, name: 'Explorer', description: 'Checked in 1 time', icon: '🏆', color: '#3B82F6', earnedAt: '2026-01-01T00:00:00.000Z' });
      expect(r.body.badges.filter((b: any) => b.id === 77)).to.have.length(1);
    });

    it('keeps followerCount and checkInCount exact under 50 parallel requests', async () => {
      const m = await makeMuseum();
      const users = await Promise.all(Array.from({ length: 50 }, () => app.user()));
      const follows = await Promise.all(users.map((u) => u.post(`/api/museums/${m.id}/follow`)));
      expect(follows.every((r) => r.status === 200 && r.body.following === true)).to.equal(true);
      const checkins = await Promise.all(users.map((u) => u.post(`/api/museums/${m.id}/checkin`)));
      expect(checkins.map((r) => r.status)).to.deep.equal(users.map(() => 201));
      const view = (await app.client().get(`/api/museums/${m.id}`)).body;
      expect(view).to.include({ followerCount: 50, checkInCount: 50, recentCheckInsCount: 50 });
      // 25 unfollow while 25 follow again: still exact
      const half = users.slice(0, 25);
      await Promise.all(half.map((u) => u.post(`/api/museums/${m.id}/follow`)));
      expect((await app.client().get(`/api/museums/${m.id}`)).body.followerCount).to.equal(25);
      const [{ n }] = await app.knex('museum_follows').where({ museum_id: m.id }).count({ n: '*' });
      expect(Number(n)).to.equal(25);
    });

    it('one user checking in 10 times at once gets one 201 and nine 409; same-user toggles stay consistent', async () => {
      const m = await makeMuseum();
      const u = await app.user();
      const rs = await Promise.all(Array.from({ length: 10 }, () => u.post(`/api/museums/${m.id}/checkin`)));
      expect(rs.filter((r) => r.status === 201)).to.have.length(1);
      expect(rs.filter((r) => r.status === 409)).to.have.length(9);
      expect((await app.client().get(`/api/museums/${m.id}`)).body.checkInCount).to.equal(1);
      await Promise.all(Array.from({ length: 9 }, () => u.post(`/api/museums/${m.id}/follow`)));
      const rows = await app.knex('museum_follows').where({ museum_id: m.id });
      expect((await app.client().get(`/api/museums/${m.id}`)).body.followerCount).to.equal(rows.length);
    });

    it('a deleted user leaves the counters', async () => {
      const m = await makeMuseum();
      const u = await app.user();
      await u.post(`/api/museums/${m.id}/follow`);
      await u.post(`/api/museums/${m.id}/checkin`);
      // (museums take the follows and check-ins out inside the deletion's own transaction: UserData.onErase)
      const { AccountsService } = await import('../../accounts/public.ts');
      expect(await app.services.get(AccountsService).deleteUser(u.me.id)).to.equal(true);
      expect((await app.client().get(`/api/museums/${m.id}`)).body).to.include({ followerCount: 0, checkInCount: 0 });
    });

    it('adjustInsightCount moves totalInsights atomically and never below zero', async () => {
      const m = await makeMuseum();
      const svc = app.services.get(MuseumsService);
      await Promise.all(Array.from({ length: 20 }, () => svc.adjustInsightCount(m.id, 1)));
      await svc.adjustInsightCount(m.id, -5);
      expect((await app.client().get(`/api/museums/${m.id}`)).body.totalInsights).to.equal(15);
      await svc.adjustInsightCount(m.id, -100);
      expect((await app.client().get(`/api/museums/${m.id}`)).body.totalInsights).to.equal(0);
    });
  });

  describe('search', () => {
    it('GET /api/search/museums is typo-tolerant and empty for 2 characters or fewer', async () => {
      const word = `Zyqor${uniqueName('').slice(0, 4)}`;
      const m = await makeMuseum({ name: `${word} Metropolitan Gallery` });
      const exact = await app.client().get(`/api/search/museums?q=${word}`);
      expect(exact.body.map((x: any) => x.id)).to.include(m.id);
      const typo = word.slice(0, 3) + word.slice(4); // one letter missing
      const fuzzy = await app.client().get(`/api/search/museums?q=${encodeURIComponent(`${typo} Metropolitn`)}`);
      expect(fuzzy.status).to.equal(200);
      expect(fuzzy.body.map((x: any) => x.id)).to.include(m.id);
      expect((await app.client().get('/api/search/museums?q=ab')).body).to.deep.equal([]);
      expect((await app.client().get('/api/search/museums?q=')).body).to.deep.equal([]);
      const wild = await app.client().get('/api/search/museums?q=%25%25%25');
      expect(wild.status).to.equal(200);
    });

    it('finds through the trigram indexes exactly the museums its six conditions match', async () => {
      // museums_matching (migration 20261206000100) against the conditions it replaced, written out
      const word = `Zyqor${uniqueName('').slice(0, 4)}`;
      await makeMuseum({ name: `${word} Metropolitan Gallery`, city: 'Lisboa' });
      await makeMuseum({ name: `Casa ${word.toLowerCase()}`, city: `${word}ville` });
      const typo = word.slice(0, 3) + word.slice(4);
      const terms = [word, typo, `${typo} Metropolitn`, 'Lisbon', 'Lisboa', 'museum', 'art', 'galery', 'Paris', 'Germany', 'nationl', '100%', 'a_b', 'zzzzqqq'];
      for (const term of terms) {
        const like = `%${likeEscape(term)}%`;
        const viaIndex = (await app.knex.raw('select museums_matching(?, ?) as id', [term, like])).rows.map((r: any) => r.id).sort((a: number, b: number) => a - b);
        const written = (
          await app.knex.raw(
            `select id from museums where name ilike ? or city ilike ? or country ilike ?
               or word_similarity(?, name) >= 0.4 or similarity(name, ?) >= 0.3 or similarity(city, ?) >= 0.5 order by id`,
            [like, like, like, term, term, term],
          )
        ).rows.map((r: any) => r.id);
        expect(viaIndex, term).to.deep.equal(written);
      }
    });

    it('GET /api/search answers at most 6 museums, users and posts from providers', async () => {
      const word = `Quillo${uniqueName('').slice(0, 4)}`;
      for (let i = 0; i < 8; i++) await makeMuseum({ name: `${word} Hall ${i}` });
      const someone = await app.user({ username: `${word.toLowerCase()}user` });
      const r = await member.get(`/api/search?q=${word}`);
      expect(r.status).to.equal(200);
      expect(r.body.museums).to.have.length(6);
      expect(r.body).to.have.keys(['museums', 'users', 'posts', 'communities', 'events']);
      // users: a registered provider answers; without one, an exact username still finds the user
      const byName = await member.get(`/api/search?q=${someone.me.username}`);
      expect(byName.body.users.map((u: any) => u.id)).to.include(someone.me.id);
      expect(byName.body.users[0]).to.not.have.property('email');
      // posts: the insights plugin's provider, then one more of the same item schema (its items are
      // concatenated) and a broken one (it contributes nothing)
      const created = await member.post('/api/posts', { type: 'text', content: `A visit to ${word}` });
      expect(created.status).to.equal(201);
      const real = (await member.get(`/api/search?q=${word}`)).body.posts;
      expect(real.map((p: any) => p.id)).to.deep.equal([created.body.id]);
      const registry = app.services.get(SearchRegistry);
      // what the item schema (insights/InsightPost) does not declare never leaves
      const extra = { ...real[0], id: 2147483000, content: `More about ${word}`, authorEmail: 'someone@example.com', user: { ...real[0].user, email: 'someone@example.com' } };
      registry.register({ kind: 'posts', itemSchema: 'insights/InsightPost', search: async (q) => (q.includes(word) ? [extra] : []) });
      registry.register({ kind: 'posts', itemSchema: 'insights/InsightPost', search: async (q) => { if (q.includes(word)) throw new Error('broken provider'); return []; } });
      const withPosts = await member.get(`/api/search?q=${word}`);
      expect(withPosts.status).to.equal(200);
      expect(withPosts.body.posts.map((p: any) => p.id)).to.deep.equal([created.body.id, 2147483000]);
      expect(withPosts.body.posts[1].content).to.equal(`More about ${word}`);
      expect(withPosts.body.posts[1]).to.not.have.property('authorEmail');
      expect(withPosts.body.posts[1].user).to.not.have.property('email');
      expect(withPosts.body.posts[1].user.id).to.equal(member.me.id);
      // the answer's schema is compiled with the router: a provider of another shape comes too late
      expect(() => registry.register({ kind: 'posts', search: async () => [] })).to.throw(/bootstrap/);
      expect((await member.get('/api/search?q=ab')).body).to.deep.equal({ museums: [], users: [], posts: [], communities: [], events: [] });
    });
  });

  describe('direct edit and suggestions', () => {
    let manager: SignedInClient;
    let otherManager: SignedInClient;
    let admin: SignedInClient;
    let museum: any;
    const full = { address: '5 New Street', city: 'Testville', state: 'NY', zipCode: '10002', country: 'United States', category: 'History Museums' };

    before(async () => {
      manager = await app.user({ role: 'Museum Manager' });
      otherManager = await app.user({ role: 'Museum Manager' });
      admin = await app.user({ role: 'Admin' });
      museum = await makeMuseum({ openingHours: { defaultHours: allWeek(closed) } });
      await app.services.get(MuseumsService).setManager(museum.id, manager.me.id, admin.me.id);
    });

    it('PATCH /api/museums/{id}/edit: Admin and the museum manager only', async () => {
      expect((await app.client().patch(`/api/museums/${museum.id}/edit`, full)).status).to.equal(401);
      const traveler = await member.patch(`/api/museums/${museum.id}/edit`, full);
      expect(traveler.status).to.equal(403);
      expect((await otherManager.patch(`/api/museums/${museum.id}/edit`, full)).status).to.equal(403);
      const ambassador = await app.user({ role: 'Ambassador' });
      expect((await ambassador.patch(`/api/museums/${museum.id}/edit`, full)).status).to.equal(403);
      const byManager = await manager.patch(`/api/museums/${museum.id}/edit`, { ...full, description: 'Edited by its manager', amenities: ['gift_shop', 'cafe_dining'] });
      expect(byManager.status, byManager.text).to.equal(200);
      expect(byManager.body).to.include({ description: 'Edited by its manager', address: '5 New Street', category: 'History Museums' });
      expect(byManager.body.amenities).to.deep.equal(['gift_shop', 'cafe_dining']);
      const byAdmin = await admin.patch(`/api/museums/${museum.id}/edit`, { phone: '+1 555 0100' });
      expect(byAdmin.status).to.equal(200);
      expect(byAdmin.body.phone).to.equal('+1 555 0100');
      expect((await admin.patch('/api/museums/2147480000/edit', full)).status).to.equal(404);
    });

    it('edit validation uses the spec messages', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ address: '' }, 'Address is required'],
        [{ city: ' ' }, 'City is required'],
        [{ state: '' }, 'State is required'],
        [{ zipCode: '' }, 'Zip code is required'],
        [{ country: '' }, 'Country is required'],
        [{ category: '' }, 'Category is required'],
        [{ email: 'x@' }, 'Please enter a valid email address'],
        [{ website: 'ftp//x' }, 'Invalid URL'],
        [{ featuredImage: 'nope' }, 'Invalid image URL'],
        [{ longitude: 181 }, 'Longitude must be between -180 and 180'],
        [{}, 'No changes detected'],
      ];
      for (const [body, message] of cases) {
        const r = await manager.patch(`/api/museums/${museum.id}/edit`, body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.message, JSON.stringify(body)).to.equal(message);
      }
      const emptyEmail = await manager.patch(`/api/museums/${museum.id}/edit`, { email: '' });
      expect(emptyEmail.status).to.equal(200);
      expect(emptyEmail.body.email).to.equal(null);
    });

    it('the edit emits museums.museum.updated with only what changed', async () => {
      const got: any[] = [];
      app.events.on('museums.museum.updated', (p) => {
        if (p.museumId === museum.id) got.push(p);
      });
      await manager.patch(`/api/museums/${museum.id}/edit`, { ...full, description: 'Second description' });
      expect(got.at(-1)).to.deep.include({ museumId: museum.id, userId: manager.me.id });
      expect(got.at(-1).changes).to.deep.equal({ description: 'Second description' });
    });

    it('suggest-edit keeps only changed fields, never a blank email; No changes detected otherwise', async () => {
      const current = (await app.client().get(`/api/museums/${museum.id}`)).body;
      expect((await app.client().post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { city: 'X' } })).status).to.equal(401);
      const none = await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { city: current.city, address: current.address, email: '' } });
      expect(none.status).to.equal(400);
      expect(none.body.message).to.equal('No changes detected');
      const hours = { defaultHours: { ...allWeek(closed), saturday: open('10:00', '16:30') }, seasonalHours: [] };
      const r = await member.post(`/api/museums/${museum.id}/suggest-edit`, {
        suggestedChanges: { city: current.city, description: 'A better description', email: '', openingHours: hours, amenities: [...current.amenities].reverse() },
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ status: 'pending', museumId: museum.id, reason: 'User suggested edit', reviewedAt: null, reviewer: null });
      expect(r.body.suggestionId).to.equal(r.body.id);
      expect(r.body.suggestedChanges).to.deep.equal({ description: 'A better description', openingHours: { ...hours, exceptions: [], publicHolidays: null } });
      expect(r.body.user).to.include({ id: member.me.id, username: member.me.username, email: member.me.email });
      expect(r.body.museum).to.deep.equal({ id: museum.id, slug: museum.slug, name: current.name });
      const withReason = await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { phone: '+1 555 0199' }, reason: 'Their new number' });
      expect(withReason.body.reason).to.equal('Their new number');
      const invalid = await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { zipCode: '' } });
      expect(invalid.body.message).to.equal('Zip code is required');
      // nothing changed on the museum yet
      expect((await app.client().get(`/api/museums/${museum.id}`)).body.description).to.equal(current.description);
    });

    it('approval applies exactly the suggested changes once; a second review is a 409', async () => {
      const svc = app.services.get(MuseumsService);
      const before = (await app.client().get(`/api/museums/${museum.id}`)).body;
      const s = (await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { description: 'Approved text', zipCode: '10099' } })).body;
      const events: any[] = [];
      app.events.on('museums.suggestion.approved', (p) => {
        if (p.suggestionId === s.id) events.push(p);
      });
      const pending = await svc.listEditSuggestions({ status: 'pending', museumId: museum.id });
      expect(pending.items.map((x) => x.id)).to.include(s.id);
      const approved = await svc.approveEditSuggestion(s.id, admin.me.id);
      expect(approved.status).to.equal('approved');
      expect(approved.reviewer).to.deep.equal({ id: admin.me.id, username: admin.me.username });
      expect(approved.reviewedAt).to.be.a('string');
      expect(events).to.deep.equal([{ suggestionId: s.id, museumId: museum.id, userId: member.me.id, reviewerId: admin.me.id, kind: 'edit' }]);
      const after = (await app.client().get(`/api/museums/${museum.id}`)).body;
      expect(after).to.include({ description: 'Approved text', zipCode: '10099', city: before.city, phone: before.phone });
      let err: any;
      try {
        await svc.approveEditSuggestion(s.id, admin.me.id);
      } catch (e) {
        err = e;
      }
      expect(err?.status).to.equal(409);
      try {
        await svc.rejectEditSuggestion(s.id, admin.me.id);
        err = null;
      } catch (e) {
        err = e;
      }
      expect(err?.status).to.equal(409);
      const r2 = (await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { description: 'Rejected text' } })).body;
      const rejected = await svc.rejectEditSuggestion(r2.id, admin.me.id, 'Not accurate');
      expect(rejected.status).to.equal('rejected');
      expect((await app.client().get(`/api/museums/${museum.id}`)).body.description).to.equal('Approved text');
    });

    it('two concurrent approvals apply once', async () => {
      const svc = app.services.get(MuseumsService);
      const s = (await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { description: `Race ${uniqueName()}` } })).body;
      const results = await Promise.allSettled([svc.approveEditSuggestion(s.id, admin.me.id), svc.approveEditSuggestion(s.id, admin.me.id)]);
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.status).to.equal(409);
    });

    it('setManager accepts only Museum Managers or Admins; null removes', async () => {
      const svc = app.services.get(MuseumsService);
      let err: any;
      try {
        await svc.setManager(museum.id, member.me.id, admin.me.id);
      } catch (e) {
        err = e;
      }
      expect(err?.status).to.equal(400);
      const m2 = await makeMuseum();
      expect((await svc.setManager(m2.id, otherManager.me.id, admin.me.id)).managerId).to.equal(otherManager.me.id);
      expect(await svc.canManage({ id: otherManager.me.id, role: 'Museum Manager' }, m2.id)).to.equal(true);
      expect((await svc.setManager(m2.id, null, admin.me.id)).managerId).to.equal(null);
      expect(await svc.canManage({ id: otherManager.me.id, role: 'Museum Manager' }, m2.id)).to.equal(false);
    });

    it('adminList filters by text and status, page by page', async () => {
      const svc = app.services.get(MuseumsService);
      const tag = uniqueName('Adm');
      const a = await makeMuseum({ name: `${tag} One` });
      await makeMuseum({ name: `${tag} Two` });
      await svc.setVerified(a.id, true, admin.me.id);
      await svc.setManager(a.id, manager.me.id, admin.me.id);
      expect((await svc.adminList({ q: tag.toUpperCase() })).total).to.equal(2);
      expect((await svc.adminList({ q: tag, status: 'verified' })).items.map((m) => m.id)).to.deep.equal([a.id]);
      expect((await svc.adminList({ q: tag, status: 'unverified' })).total).to.equal(1);
      expect((await svc.adminList({ q: tag, status: 'with_manager' })).items.map((m) => m.id)).to.deep.equal([a.id]);
      expect((await svc.adminList({ q: tag, status: 'without_manager' })).total).to.equal(1);
      const p = await svc.adminList({ q: tag, page: 2, pageSize: 1 });
      expect(p).to.include({ total: 2, page: 2, pageSize: 1 });
      expect(p.items).to.have.length(1);
    });
  });

  describe('new museum suggestions', () => {
    it('POST /api/museum-suggestions validates, stores pending, answers the id', async () => {
      expect((await app.client().post('/api/museum-suggestions', { name: 'x', address: 'a', city: 'b', country: 'c' })).status).to.equal(401);
      const bad = await member.post('/api/museum-suggestions', { name: '', address: '', city: '', country: '' });
      expect(bad.status).to.equal(400);
      for (const m of ['Museum name is required', 'Address is required', 'City is required', 'Country is required']) expect(bad.body.message).to.include(m);
      const name = uniqueName('Tiny Museum ');
      const r = await member.post('/api/museum-suggestions', { name, description: 'Small', address: '3 Lane', city: 'Bruges', country: 'Belgium', website: '', phone: '', userId: 999999 });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ status: 'pending', name, museumId: null, website: null });
      expect(r.body.user.id).to.equal(member.me.id);
    });

    it('approval creates the museum once (with the suggester as creator); rejection does not', async () => {
      const svc = app.services.get(MuseumsService);
      const admin = await app.user({ role: 'Admin' });
      const name = uniqueName('Proposed Museum ');
      const s = (await member.post('/api/museum-suggestions', { name, address: '3 Lane', city: 'Bruges', country: 'Belgium' })).body;
      const { suggestion, museum } = await svc.approveMuseumSuggestion(s.id, admin.me.id);
      expect(suggestion).to.include({ status: 'approved', museumId: museum.id });
      expect(museum).to.include({ name, city: 'Bruges', timezone: 'Europe/Brussels', isVerified: false });
      let err: any;
      try {
        await svc.approveMuseumSuggestion(s.id, admin.me.id);
      } catch (e) {
        err = e;
      }
      expect(err?.status).to.equal(409);
      const s2 = (await member.post('/api/museum-suggestions', { name: uniqueName('Nope '), address: 'a', city: 'b', country: 'c' })).body;
      const rej = await svc.rejectMuseumSuggestion(s2.id, admin.me.id);
      expect(rej).to.include({ status: 'rejected', museumId: null });
      expect((await svc.listMuseumSuggestions({ status: 'rejected' })).items.map((x) => x.id)).to.include(s2.id);
    });
  });

  describe('profile MUSEUMS tab', () => {
    it('GET /api/museums/user/{id} lists followed and visited museums; 404 for an unknown user', async () => {
      const u = await app.user();
      const a = await makeMuseum();
      const b = await makeMuseum();
      await u.post(`/api/museums/${a.id}/follow`);
      await u.post(`/api/museums/${b.id}/checkin`);
      const r = await app.client().get(`/api/museums/user/${u.me.id}`);
      expect(r.status, r.text).to.equal(200);
      expect(r.body.following.map((m: any) => m.id)).to.deep.equal([a.id]);
      expect(r.body.visited).to.have.length(1);
      expect(r.body.visited[0]).to.include({ visits: 1 });
      expect(r.body.visited[0].museum.id).to.equal(b.id);
      expect((await app.client().get('/api/museums/user/2147480000')).status).to.equal(404);
    });
  });

  describe('maps key', () => {
    it('without GOOGLE_MAPS_API_KEY the script and config routes answer a clear 503', async () => {
      const r = await app.client().get('/api/google-maps-script?libraries=places&v=weekly&callback=initMap');
      expect(r.status).to.equal(503);
      expect(r.body.message).to.match(/not configured/);
      const c = await app.client().get('/api/google-maps-config');
      expect(c.status).to.equal(503);
      expect(c.body.message).to.match(/GOOGLE_MAPS_API_KEY/);
    });
  });
});
