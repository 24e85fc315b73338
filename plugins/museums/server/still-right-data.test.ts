/**
 * A member's "Still right?" answers (issue 20) and their data (issue 24), over real HTTP: the
 * archive holds every answer (yes or no, the words and the structured change given, the
 * suggestion it went into); deleting the account removes the answers, and the suggestions made
 * from several visitors' answers keep the other visitors' part without the member's words or name.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { unzip } from '../../../core/testing/zip.ts';
import { sharedApp, uniqueName, waitFor, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt, type Museum } from '../public.ts';

describe('museums: "Still right?" answers in the data archive and the erasure (issue 24)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let admin: SignedInClient;
  const tag = crypto.randomBytes(3).toString('hex');

  before(async () => {
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  async function museum(): Promise<Museum> {
    const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Still Right '), address: '5 Quai', city: uniqueName('Town'), country: 'France', latitude: 45.76, longitude: 4.83, timezone: 'Europe/Paris' } as any, null);
    const r = await admin.patch(`/api/museums/${m.id}/edit`, { phone: '+33 4 00 00 00 00', admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 900 }], freeRules: [] } });
    expect(r.status, r.text).to.equal(200);
    return r.body;
  }
  async function answer(u: SignedInClient, m: Museum, body: Record<string, unknown>) {
    const c = await u.post(`/api/museums/${m.id}/checkin`, positionAt(m));
    expect(c.body.checkIn?.verified, c.text).to.equal(true);
    const r = await u.post(`/api/museums/${m.id}/fact-check`, body);
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  it('exports every answer, then erases them; shared suggestions keep the others\' part without the member\'s words', async () => {
    const me = await app.user();
    const friend = await app.user();
    const third = await app.user();
    const [m1, m2, m3] = [await museum(), await museum(), await museum()];
    const mine1 = `The number rings nowhere ${tag}`;
    const mine2 = `Shut at noon ${tag}`;
    // m1: the friend says no, then me: the suggestion is made on my answer (I am its author)
    await answer(friend, m1, { group: 'contact', agrees: false, correction: 'friend words on the phone', change: { contact: { phone: '+33 4 11 11 11 11' } } });
    const s1 = (await answer(me, m1, { group: 'contact', agrees: false, correction: mine1, change: { contact: { phone: '+33 4 11 11 11 11' } } })).suggestionId;
    expect(s1).to.be.a('number');
    // m2: me, then the third member: their suggestion, approved before I leave
    await answer(me, m2, { group: 'hours', agrees: false, correction: mine2 });
    const s2 = (await answer(third, m2, { group: 'hours', agrees: false, correction: 'third words on the hours' })).suggestionId;
    expect(s2).to.be.a('number');
    expect((await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: s2 })).status).to.equal(200);
    // m3: a yes
    await answer(me, m3, { group: 'admission', agrees: true });
    const reasons = async () => (await app.knex('museum_edit_suggestions').whereIn('id', [s1, s2]).orderBy('id').select('id', 'user_id', 'status', 'reason')) as any[];
    const before = await reasons();
    expect(before.map((s) => s.user_id)).to.deep.equal([me.me.id, third.me.id]);
    expect(before[0].reason).to.include(mine1);
    expect(before[1].reason).to.include(mine2);

    // the archive
    const asked = await me.post('/api/user/exports');
    expect(asked.status, asked.text).to.equal(202);
    const ready = await waitFor(
      async () => {
        await app.jobs.runDue({ only: ['accounts.buildExport'] });
        const l = await me.get('/api/user/exports');
        return l.body.items[0]?.status === 'ready' ? l.body.items[0] : null;
      },
      { timeout: 60_000, interval: 250 },
    );
    const res = await me.raw('GET', ready.downloadUrl);
    expect(res.status).to.equal(200);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(files.get('README.html')!.toString('utf8')).to.include('href="still-right-answers.json"');
    const answers = JSON.parse(files.get('still-right-answers.json')!.toString('utf8'));
    const today = answers[0]?.visitDate;
    expect(today).to.match(/^\d{4}-\d\d-\d\d$/);
    expect(answers.map((a: any) => ({ ...a, answeredAt: typeof a.answeredAt }))).to.deep.equal([
      {
        museumId: m1.id,
        museum: m1.name,
        facts: 'contact',
        visitDate: today,
        stillRight: false,
        correction: mine1,
        changes: { phone: '+33 4 11 11 11 11' },
        answeredAt: 'string',
        suggestion: { id: s1, status: 'pending' },
      },
      { museumId: m2.id, museum: m2.name, facts: 'hours', visitDate: today, stillRight: false, correction: mine2, changes: null, answeredAt: 'string', suggestion: { id: s2, status: 'approved' } },
      { museumId: m3.id, museum: m3.name, facts: 'admission', visitDate: today, stillRight: true, correction: null, changes: null, answeredAt: 'string', suggestion: null },
    ]);
    // only my answers: the others' words are theirs
    const text = files.get('still-right-answers.json')!.toString('utf8');
    expect(text).to.not.include('friend words');
    expect(text).to.not.include('third words');

    // the erasure (the test configuration erases at once)
    expect((await me.del('/api/user/account')).status).to.equal(200);
    expect(await app.knex('users').where({ id: me.me.id }).first('id')).to.equal(undefined);
    expect(await app.knex('museum_fact_answers').where({ user_id: me.me.id })).to.deep.equal([]);
    const after = await reasons();
    // the pending suggestion stays the friend's (they are told of its review), the approved one the third's
    expect(after.map((s) => [s.id, s.user_id, s.status])).to.deep.equal([
      [s1, friend.me.id, 'pending'],
      [s2, third.me.id, 'approved'],
    ]);
    expect(after[0].reason).to.equal('2 visitors say the contact facts are not right: "friend words on the phone"');
    expect(after[1].reason).to.equal('2 visitors say the hours facts are not right: "third words on the hours"');
    // no table holds my words
    for (const [t, c] of [['museum_edit_suggestions', 'reason'], ['museum_fact_answers', 'correction']] as const)
      expect(await app.knex(t).whereRaw(`"${c}" like ?`, [`%${tag}%`]).count({ n: '*' }).then((r: any) => Number(r[0].n)), `${t}.${c}`).to.equal(0);
    // the others' answers still stand behind their suggestions, and the pending one is approved into the museum
    expect(await app.knex('museum_fact_answers').where({ suggestion_id: s1 }).pluck('user_id')).to.deep.equal([friend.me.id]);
    expect((await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: s1 })).status).to.equal(200);
    expect((await app.client().get(`/api/museums/${m1.id}`)).body.phone).to.equal('+33 4 11 11 11 11');
  });

  it('a pending suggestion whose visitors all left goes with the last of them', async () => {
    const first = await app.user();
    const last = await app.user();
    const m = await museum();
    await answer(first, m, { group: 'contact', agrees: false, correction: `first ${tag}` });
    const sid = (await answer(last, m, { group: 'contact', agrees: false, correction: `last ${tag}`, change: { contact: { phone: '+33 4 22 22 22 22' } } })).suggestionId;
    expect(sid).to.be.a('number');
    // its author leaves: it passes to the other visitor, without the author's words
    expect((await last.del('/api/user/account')).status).to.equal(200);
    expect(await app.knex('museum_edit_suggestions').where({ id: sid }).first('user_id', 'status', 'reason')).to.deep.equal({
      user_id: first.me.id,
      status: 'pending',
      reason: `2 visitors say the contact facts are not right: "first ${tag}"`,
    });
    // the other leaves too: nothing of theirs is left to review
    expect((await first.del('/api/user/account')).status).to.equal(200);
    expect(await app.knex('museum_edit_suggestions').where({ id: sid })).to.deep.equal([]);
    expect(await app.knex('museum_fact_answers').where({ museum_id: m.id })).to.deep.equal([]);
  });
});
