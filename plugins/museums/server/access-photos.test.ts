/**
 * A photo per accessibility fact (issue 20): a manager attaches one (re-encoded, EXIF and GPS
 * dropped, responsive variants made by the background job), it shows on the museum answer,
 * replacing or removing it deletes the stored file and its variants, a member's photo goes through
 * the suggestion queue, and the storage sweep keeps the photos a museum or a pending suggestion names.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { gpsJpeg, SECRET_TEXT } from '../../../core/quality/fixtures/corpus.ts';
import { MuseumsService } from '../public.ts';

async function fetchBytes(app: TestApp, url: string) {
  const r = await app.client().raw('GET', url);
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
}
const photo = (data: Buffer) => [{ field: 'photo', name: 'entrance.jpg', type: 'image/jpeg', data }];

describe('museums API: accessibility photos', function () {
  this.timeout(90_000);
  let app: TestApp;
  let admin: SignedInClient;
  let manager: SignedInClient;
  let member: SignedInClient;
  let museum: any;

  before(async () => {
    app = await sharedApp();
    [admin, manager, member] = await Promise.all([app.user({ role: 'Admin' }), app.user({ role: 'Museum Manager' }), app.user()]);
    museum = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Ramp Museum '), address: '1 Quai', city: 'Lyon', country: 'France', latitude: 45.76, longitude: 4.83 } as any, null);
    await app.services.get(MuseumsService).setManager(museum.id, manager.me.id, admin.me.id);
  });

  it("the manager attaches a photo: stored re-encoded without EXIF or GPS, shown with the fact, variants made in the background", async () => {
    const original = await gpsJpeg();
    expect((await sharp(original).metadata()).exif).to.be.instanceOf(Buffer);
    const r = await manager.upload(`/api/museums/${museum.id}/accessibility/stepFreeEntrance/photo`, photo(original));
    expect(r.status, r.text).to.equal(200);
    const url: string = r.body.accessibility.stepFreeEntrance.photo;
    expect(url).to.match(/^\/uploads\/museums\/accessibility\/[0-9a-f]{32}\.jpg$/);
    expect(r.body.freshness.accessibility.source).to.equal('manager');
    const stored = await fetchBytes(app, url);
    expect(stored.status).to.equal(200);
    expect(stored.type).to.equal('image/jpeg');
    expect((await sharp(stored.body).metadata()).exif).to.equal(undefined);
    expect(stored.body.includes(Buffer.from(SECRET_TEXT))).to.equal(false);
    expect(stored.body.includes(Buffer.from('GPS'))).to.equal(false);
    // the public museum answer carries it
    expect((await app.client().get(`/api/museums/${museum.id}`)).body.accessibility.stepFreeEntrance.photo).to.equal(url);
    // responsive variants (320 px wide master: one width, three formats)
    const variant = url.replace(/\.jpg$/, '_w320.webp');
    for (let i = 0; i < 200 && (await fetchBytes(app, variant)).status !== 200; i++) {
      await app.jobs.drain();
      await new Promise((res) => setTimeout(res, 100));
    }
    for (const f of ['avif', 'webp', 'jpg']) expect((await fetchBytes(app, url.replace(/\.jpg$/, `_w320.${f}`))).status, f).to.equal(200);

    // replacing it deletes the old file and its variants
    const again = await manager.upload(`/api/museums/${museum.id}/accessibility/stepFreeEntrance/photo`, photo(await gpsJpeg()));
    expect(again.status, again.text).to.equal(200);
    const url2: string = again.body.accessibility.stepFreeEntrance.photo;
    expect(url2).to.not.equal(url);
    expect((await fetchBytes(app, url)).status).to.equal(404);
    expect((await fetchBytes(app, variant)).status).to.equal(404);

    // removing it: the fact keeps its value and note, the file goes
    await manager.patch(`/api/museums/${museum.id}/edit`, { accessibility: { ...again.body.accessibility, stepFreeEntrance: { value: 'yes', note: 'Ramp on the left', photo: url2 } } });
    const del = await manager.del(`/api/museums/${museum.id}/accessibility/stepFreeEntrance/photo`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.accessibility.stepFreeEntrance).to.deep.equal({ value: 'yes', note: 'Ramp on the left' });
    expect((await fetchBytes(app, url2)).status).to.equal(404);
    expect((await manager.del(`/api/museums/${museum.id}/accessibility/stepFreeEntrance/photo`)).status).to.equal(404);
  });

  it('refuses other members, unknown facts and non-images; a photo URL that is not ours is dropped from edits', async () => {
    expect((await member.upload(`/api/museums/${museum.id}/accessibility/seating/photo`, photo(await gpsJpeg()))).status).to.equal(403);
    expect((await member.del(`/api/museums/${museum.id}/accessibility/seating/photo`)).status).to.equal(403);
    expect((await manager.upload(`/api/museums/${museum.id}/accessibility/elevator/photo`, photo(await gpsJpeg()))).status).to.equal(400);
    const bad = await manager.upload(`/api/museums/${museum.id}/accessibility/seating/photo`, [{ field: 'photo', name: 'x.jpg', type: 'image/jpeg', data: Buffer.from('<html>no</html>') }]);
    expect(bad.status).to.equal(400);
    const e = await manager.patch(`/api/museums/${museum.id}/edit`, { accessibility: { seating: { value: 'yes', photo: '/uploads/museums/accessibility/x.jpg?y' } } });
    expect(e.status).to.equal(400); // the schema's pattern
    const other = await app.services.get(MuseumsService).updateMuseum(museum.id, { accessibility: { seating: { value: 'yes', photo: 'https://evil.example/x.jpg' } } } as any, admin.me.id);
    expect(other.accessibility.seating).to.deep.equal({ value: 'yes' });
  });

  it("a member's photo is a suggestion: approved, it is the museum's (the sweep's side: core/quality/storage-sweep.test.ts)", async () => {
    const s = await member.upload(`/api/museums/${museum.id}/accessibility/accessibleToilets/photo-suggestion`, photo(await gpsJpeg()), { reason: 'Photo of the toilets sign' });
    expect(s.status, s.text).to.equal(201);
    const url: string = s.body.suggestedChanges.accessibility.accessibleToilets.photo;
    expect(url).to.match(/^\/uploads\/museums\/accessibility\//);
    expect(s.body.reason).to.equal('Photo of the toilets sign');
    expect(s.body.status).to.equal('pending');
    expect((await app.client().get(`/api/museums/${museum.id}`)).body.accessibility.accessibleToilets.photo).to.equal(undefined);
    await app.services.get(MuseumsService).approveEditSuggestion(s.body.id, admin.me.id);
    const m = (await app.client().get(`/api/museums/${museum.id}`)).body;
    expect(m.accessibility.accessibleToilets.photo).to.equal(url);
    expect(m.freshness.accessibility.source).to.equal('suggestion');
    expect((await fetchBytes(app, url)).status).to.equal(200);
  });
});
