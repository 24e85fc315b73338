import { expect } from 'chai';
import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { gpsJpeg, jpegOfSize, SECRET_TEXT } from '../../../core/quality/fixtures/corpus.ts';
import { MuseumsService } from '../../museums/public.ts';
import { createMuseum, setVisibility } from './test-helpers.ts';

const jpeg = (w = 200, h = 150, color = { r: 200, g: 120, b: 40 }) => sharp({ create: { width: w, height: h, channels: 3, background: color } }).jpeg().toBuffer();
/** Waits until the variants job has made a photo's variants (the job runs in the background). */
async function variantsMade(app: TestApp, c: SignedInClient, postId: number) {
  for (let i = 0; i < 200; i++) {
    await app.jobs.drain();
    const p = (await c.get(`/api/posts/${postId}`)).body;
    if (p.photos.every((x: any) => x.widths.length)) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('variants not made in 20 s');
}

const file = (data: Buffer, name = 'photo.jpg', type = 'image/jpeg') => ({ field: 'photo', name, type, data });

async function upload(c: SignedInClient, data?: Buffer, name?: string, type?: string) {
  const r = await c.upload('/api/posts/photos', [file(data ?? (await jpeg()), name, type)]);
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${r.text}`);
  return r.body;
}

async function fetchBytes(app: TestApp, url: string) {
  const r = await app.client().raw('GET', url);
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
}

describe('insights: photo insights', function () {
  this.timeout(60_000);
  let app: TestApp;
  let author: SignedInClient;
  let other: SignedInClient;

  before(async () => {
    app = await sharedApp();
    [author, other] = await Promise.all([app.user(), app.user()]);
  });

  it('stores an uploaded photo re-encoded as JPEG without EXIF or GPS (read back with sharp)', async () => {
    const original = await gpsJpeg();
    expect((await sharp(original).metadata()).exif, 'the test image carries EXIF').to.be.instanceOf(Buffer);
    const up = await upload(author, original, 'trip.jpg');
    expect(up).to.include({ width: 320, height: 240 });
    expect(up.url).to.match(/^\/uploads\/insights\/photos\/[0-9a-f]{32}\.jpg$/);
    expect(up.blurhash).to.be.a('string').with.length.above(6);
    const stored = await fetchBytes(app, up.url);
    expect(stored.status).to.equal(200);
    expect(stored.type).to.equal('image/jpeg');
    const meta = await sharp(stored.body).metadata();
    expect(meta.exif).to.equal(undefined);
    expect(stored.body.includes(Buffer.from(SECRET_TEXT))).to.equal(false);
    expect(stored.body.includes(Buffer.from('GPS'))).to.equal(false);
  });

  it('applies the EXIF orientation (a 6 = rotated portrait comes out upright) and drops the tag', async () => {
    const sideways = await sharp({ create: { width: 120, height: 60, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const up = await upload(author, sideways);
    expect(up).to.include({ width: 60, height: 120 });
    const meta = await sharp((await fetchBytes(app, up.url)).body).metadata();
    expect(meta.orientation ?? 1).to.equal(1);
    expect([meta.width, meta.height]).to.deep.equal([60, 120]);
  });

  it('takes PNG and WebP; refuses GIF, text and empty files (400) and files over 15 MB (413)', async () => {
    const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } }).png().toBuffer();
    expect((await author.upload('/api/posts/photos', [file(png, 'a.png', 'image/png')])).status).to.equal(201);
    const webp = await sharp({ create: { width: 50, height: 40, channels: 3, background: { r: 9, g: 9, b: 9 } } }).webp().toBuffer();
    expect((await author.upload('/api/posts/photos', [file(webp, 'a.webp', 'image/webp')])).status).to.equal(201);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: { r: 9, g: 9, b: 9 } } }).gif().toBuffer();
    const g = await author.upload('/api/posts/photos', [file(gif, 'a.gif', 'image/gif')]);
    expect(g.status).to.equal(400);
    expect(g.body.message).to.match(/JPEG, PNG, WebP or HEIC/);
    expect((await author.upload('/api/posts/photos', [file(Buffer.from('hello, not a photo'.repeat(30)), 'a.jpg')])).status).to.equal(400);
    expect((await author.upload('/api/posts/photos', [file(Buffer.alloc(0))])).status).to.equal(400);
    const big = await author.upload('/api/posts/photos', [file(await jpegOfSize(15 * 1024 * 1024 + 1))]);
    expect(big.status).to.equal(413);
    expect(big.body.message).to.match(/15 MB/);
    expect((await app.client().upload('/api/posts/photos', [file(await jpeg())])).status).to.equal(401);
  });

  it('refuses an HEIC photo coded with HEVC, which sharp cannot decode, with 415 and a message saying what to do', async () => {
    // a real HEIC: an HEIF container with one HEVC picture made by libx265 (fixtures/make-hevc-heic.mjs)
    const heic = await fsp.readFile(new URL('./fixtures/hevc.heic', import.meta.url));
    const meta = await sharp(heic).metadata();
    expect([meta.format, meta.compression, meta.width, meta.height]).to.deep.equal(['heif', 'hevc', 64, 64]);
    const r = await author.upload('/api/posts/photos', [file(heic, 'IMG_0001.HEIC', 'image/heic')]);
    expect(r.status).to.equal(415);
    expect(r.body.message).to.match(/HEVC/).and.to.match(/JPEG/);
    // the same bytes under a JPEG name are refused the same way (the content decides)
    expect((await author.upload('/api/posts/photos', [file(heic, 'a.jpg')])).status).to.equal(415);
  });

  it('creates a photo insight of three photos with alt text, a focal point and the sensitive flag; the feed carries them', async () => {
    const ups = [await upload(author), await upload(author, await jpeg(300, 200)), await upload(author, await jpeg(90, 90))];
    const r = await author.post('/api/posts', {
      type: 'photo',
      content: 'Our visit',
      sensitive: true,
      photos: ups.map((u, i) => ({ id: u.id, alt: `Photo ${i + 1}`, focalPoint: i === 0 ? { x: 0.25, y: 0.75 } : null, allowFeature: i === 0 })),
    });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.type).to.equal('photo');
    expect(r.body.sensitive).to.equal(true);
    expect(r.body.photos.map((p: any) => p.alt)).to.deep.equal(['Photo 1', 'Photo 2', 'Photo 3']);
    expect(r.body.photos.map((p: any) => p.id)).to.deep.equal(ups.map((u) => u.id));
    expect(r.body.photos[0].focalPoint).to.deep.equal({ x: 0.25, y: 0.75 });
    expect(r.body.imageUrl).to.equal(ups[0].url);
    expect(r.body.imageUrls).to.have.length(3);
    const got = await other.get(`/api/posts/${r.body.id}`);
    expect(got.body.photos.map((p: any) => p.url)).to.deep.equal(ups.map((u) => u.url));
    const list = await other.get(`/api/user/${author.me.id}/posts`);
    expect(list.body.items.find((p: any) => p.id === r.body.id).photos).to.have.length(3);
  });

  it('refuses a photo insight without photos, with more than 10, with photos of someone else or already shared', async () => {
    expect((await author.post('/api/posts', { type: 'photo', photos: [] })).status).to.equal(400);
    const none = await author.post('/api/posts', { type: 'photo', content: 'x' });
    expect(none.status).to.equal(400);
    expect(none.body.message).to.equal('Please add at least one photo to your photo insight.');
    const eleven = Array.from({ length: 11 }, (_, i) => ({ id: i + 1 }));
    expect((await author.post('/api/posts', { type: 'photo', photos: eleven })).status).to.equal(400);
    const theirs = await upload(other);
    expect((await author.post('/api/posts', { type: 'photo', photos: [{ id: theirs.id }] })).status).to.equal(400);
    const mine = await upload(author);
    expect((await author.post('/api/posts', { type: 'photo', photos: [{ id: mine.id }, { id: mine.id }] })).status).to.equal(400);
    expect((await author.post('/api/posts', { type: 'photo', photos: [{ id: mine.id }] })).status).to.equal(201);
    expect((await author.post('/api/posts', { type: 'photo', photos: [{ id: mine.id }] })).status).to.equal(409);
  });

  it('shares one upload in exactly one insight when two posts race for it', async () => {
    const up = await upload(author);
    const before = (await author.get(`/api/user/${author.me.id}`)).body;
    const res = await Promise.all(Array.from({ length: 4 }, () => author.post('/api/posts', { type: 'photo', photos: [{ id: up.id }] })));
    const statuses = res.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 409, 409, 409]);
    const after = (await author.get(`/api/user/${author.me.id}`)).body;
    if (before?.insightsCount !== undefined) expect(after.insightsCount).to.equal(before.insightsCount + 1);
  });

  it('makes AVIF, WebP and JPEG variants at the listed widths in a background job, then answers srcsets', async () => {
    const up = await upload(author, await jpeg(1500, 1000));
    const post = (await author.post('/api/posts', { type: 'photo', photos: [{ id: up.id, alt: 'Wide' }] })).body;
    const got = (await variantsMade(app, other, post.id)).photos[0];
    expect(got.widths).to.deep.equal([320, 640, 1280, 1500]);
    expect(got.srcset.avif).to.contain('_w640.avif 640w');
    for (const [fmt, type] of [['avif', 'image/avif'], ['webp', 'image/webp'], ['jpg', 'image/jpeg']] as const) {
      const url = up.url.replace(/\.jpg$/, `_w640.${fmt}`);
      const v = await fetchBytes(app, url);
      expect(v.status, url).to.equal(200);
      expect(v.type).to.equal(type);
      const meta = await sharp(v.body).metadata();
      expect(meta.width).to.equal(640);
      expect(meta.height).to.equal(427);
      expect(meta.exif).to.equal(undefined);
    }
    // the feed copy and the rows agree after the job
    expect(got.blurhash).to.equal(up.blurhash);
  });

  it('lets only the author add or edit alt text and the focal point afterwards', async () => {
    const up = await upload(author);
    const post = (await author.post('/api/posts', { type: 'photo', photos: [{ id: up.id }] })).body;
    expect(post.photos[0].alt).to.equal('');
    const path = `/api/posts/${post.id}/photos/${up.id}`;
    expect((await other.patch(path, { alt: 'Mine now' })).status).to.equal(403);
    expect((await app.client().patch(path, { alt: 'Anon' })).status).to.equal(401);
    const ok = await author.patch(path, { alt: '  A bronze horse in the courtyard ', focalPoint: { x: 0.5, y: 0.1 } });
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.body.alt).to.equal('A bronze horse in the courtyard');
    expect((await other.get(`/api/posts/${post.id}`)).body.photos[0]).to.include({ alt: 'A bronze horse in the courtyard' });
    expect((await author.patch(path, { focalPoint: { x: 2, y: 0 } })).status).to.equal(400);
    expect((await author.patch(`/api/posts/${post.id}/photos/999999999`, { alt: 'x' })).status).to.equal(404);
    // a photo of another insight of the same author is not this insight's
    const up2 = await upload(author);
    await author.post('/api/posts', { type: 'photo', photos: [{ id: up2.id }] });
    expect((await author.patch(`/api/posts/${post.id}/photos/${up2.id}`, { alt: 'x' })).status).to.equal(404);
  });

  it("deletes a photo insight's files with it, and a deleted account's unshared uploads too", async () => {
    const u = await app.user();
    const shared = await upload(u);
    const post = (await u.post('/api/posts', { type: 'photo', photos: [{ id: shared.id }] })).body;
    await variantsMade(app, u, post.id);
    const variant = shared.url.replace(/\.jpg$/, '_w200.avif');
    expect((await fetchBytes(app, variant)).status).to.equal(200);
    expect((await u.del(`/api/posts/${post.id}`)).status).to.equal(200);
    expect((await fetchBytes(app, shared.url)).status).to.equal(404);
    expect((await fetchBytes(app, variant)).status).to.equal(404);
    const unshared = await upload(u);
    expect((await fetchBytes(app, unshared.url)).status).to.equal(200);
    expect((await u.del('/api/user/account')).status).to.equal(200);
    expect((await fetchBytes(app, unshared.url)).status).to.equal(404);
  });

  describe('museum gallery and featured image', () => {
    let museum: any;
    let manager: SignedInClient;
    let consenting: any;
    let refusing: any;

    before(async () => {
      museum = await createMuseum(app, `Photo museum ${Date.now()}`);
      manager = await app.user({ role: 'Museum Manager' } as any);
      const admin = await app.user({ role: 'Admin' } as any);
      await app.services.get(MuseumsService).setManager(museum.id, manager.me.id, admin.me.id);
      const a = await upload(author);
      const b = await upload(author);
      consenting = (await author.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: a.id, alt: 'Facade', allowFeature: true }, { id: b.id, alt: 'Hall' }] })).body;
      const c = await upload(other);
      refusing = (await other.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: c.id, alt: 'Stairs' }] })).body;
    });

    it("lists members' photos tagged to the museum, hiding blocked and private authors in the statement", async () => {
      const viewer = await app.user();
      const all = await viewer.get(`/api/museums/${museum.id}/photos`);
      expect(all.status).to.equal(200);
      expect(all.body.items.map((p: any) => p.alt)).to.have.members(['Facade', 'Hall', 'Stairs']);
      expect(all.body.canFeature).to.equal(false);
      expect(all.body.items.find((p: any) => p.alt === 'Facade').user.id).to.equal(author.me.id);
      expect((await viewer.post(`/api/user/${other.me.id}/block`)).status).to.equal(200);
      const afterBlock = await viewer.get(`/api/museums/${museum.id}/photos`);
      expect(afterBlock.body.items.map((p: any) => p.alt)).to.have.members(['Facade', 'Hall']);
      const stranger = await app.user();
      const privateAuthor = await app.user();
      const p = await upload(privateAuthor);
      await privateAuthor.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: p.id, alt: 'Private one' }] });
      await setVisibility(privateAuthor, 'private');
      const seen = await stranger.get(`/api/museums/${museum.id}/photos?limit=60`);
      expect(seen.body.items.map((x: any) => x.alt)).to.not.include('Private one');
      const paged = await stranger.get(`/api/museums/${museum.id}/photos?limit=1`);
      expect(paged.body.items).to.have.length(1);
      expect(paged.body.nextBefore).to.be.a('number');
    });

    it('lets the manager feature a photo only with its author’s consent, credits the author, and clears it when the insight goes', async () => {
      const facade = consenting.photos[0];
      const hall = consenting.photos[1];
      const stairs = refusing.photos[0];
      const path = `/api/museums/${museum.id}/featured-photo`;
      expect((await other.put(path, { photoId: facade.id })).status).to.equal(403);
      expect((await app.client().put(path, { photoId: facade.id })).status).to.equal(401);
      expect((await manager.put(path, { photoId: hall.id })).status).to.equal(403);
      expect((await manager.put(path, { photoId: stairs.id })).status).to.equal(403);
      await variantsMade(app, author, consenting.id);
      const ok = await manager.put(path, { photoId: facade.id });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.photo.user.id).to.equal(author.me.id);
      expect(ok.body.photo.id).to.equal(facade.id);
      const m = await app.services.get(MuseumsService).getMuseum(museum.id);
      // the largest variant up to 1280 px (this photo is 200 px wide), whose smaller ones exist beside it
      expect(m!.featuredImage).to.equal(facade.url.replace(/\.jpg$/, '_w200.jpg'));
      expect((await fetchBytes(app, m!.featuredImage!)).status).to.equal(200);
      expect((await fetchBytes(app, m!.featuredImage!.replace(/\.jpg$/, '.avif'))).status).to.equal(200);
      expect((await app.client().get(path)).body.photo.user.username).to.equal(author.me.username);
      expect((await manager.get(`/api/museums/${museum.id}/photos`)).body.canFeature).to.equal(true);
      // a photo of another museum is refused
      const elsewhere = await upload(author);
      const post2 = (await author.post('/api/posts', { type: 'photo', photos: [{ id: elsewhere.id, allowFeature: true }] })).body;
      expect((await manager.put(path, { photoId: post2.photos[0].id })).status).to.equal(400);
      // the insight deleted: the museum stops featuring it
      expect((await author.del(`/api/posts/${consenting.id}`)).status).to.equal(200);
      expect((await app.client().get(path)).body.photo).to.equal(null);
      const after = await app.services.get(MuseumsService).getMuseum(museum.id);
      expect(after!.featuredImage).to.equal(null);
    });

    it('stops featuring a photo at once when its author withdraws consent (PATCH, author only), and refuses to feature it again', async () => {
      const up = await upload(author);
      const post = (await author.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: up.id, alt: 'Portico', allowFeature: true }] })).body;
      const photoId = post.photos[0].id;
      const path = `/api/museums/${museum.id}/featured-photo`;
      const featured = await manager.put(path, { photoId });
      expect(featured.status, featured.text).to.equal(200);
      const museums = app.services.get(MuseumsService);
      const shown = (await museums.getMuseum(museum.id))!.featuredImage;
      expect(shown).to.be.a('string');
      const patchPath = `/api/posts/${post.id}/photos/${photoId}`;
      // only the author may withdraw it, and the photo stays featured meanwhile
      expect((await manager.patch(patchPath, { allowFeature: false })).status).to.equal(403);
      expect((await app.client().patch(patchPath, { allowFeature: false })).status).to.equal(401);
      expect((await author.patch(patchPath, { allowFeature: 'no' })).status).to.equal(400);
      expect((await museums.getMuseum(museum.id))!.featuredImage).to.equal(shown);
      const withdrawn = await author.patch(patchPath, { allowFeature: false });
      expect(withdrawn.status, withdrawn.text).to.equal(200);
      expect(withdrawn.body).to.include({ id: photoId, allowFeature: false, alt: 'Portico' });
      // at once: no featured photo, the museum's image cleared, the insight itself untouched
      expect((await app.client().get(path)).body.photo).to.equal(null);
      expect((await museums.getMuseum(museum.id))!.featuredImage).to.equal(null);
      expect((await other.get(`/api/posts/${post.id}`)).body.photos[0]).to.include({ id: photoId, alt: 'Portico' });
      expect((await manager.put(path, { photoId })).status).to.equal(403);
      // consent given again: it may be featured again
      expect((await author.patch(patchPath, { allowFeature: true })).body.allowFeature).to.equal(true);
      expect((await manager.put(path, { photoId })).status).to.equal(200);
      // withdrawing consent for a photo that is not the featured one leaves the museum's image alone
      const other2 = await upload(author);
      const post2 = (await author.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: other2.id, allowFeature: true }] })).body;
      const before = (await museums.getMuseum(museum.id))!.featuredImage;
      expect((await author.patch(`/api/posts/${post2.id}/photos/${post2.photos[0].id}`, { allowFeature: false })).status).to.equal(200);
      expect((await museums.getMuseum(museum.id))!.featuredImage).to.equal(before);
      expect((await app.client().get(path)).body.photo.id).to.equal(photoId);
    });
  });
});
