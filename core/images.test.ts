/**
 * Responsive variants of images stored before they existed (issue 23): the one-off job finds every
 * referenced image (avatars, community images, meetup photos…), makes 320… px AVIF/WebP/JPEG
 * copies beside it with progress, skips those already made; the storage sweep keeps variants while
 * their master is referenced and deletes them with it; new uploads queue their own variants job,
 * and deleting a master deletes its variants at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './testing/index.ts';
import { IMAGE_VARIANT_JOB, IMAGE_VARIANTS_JOB, variantKey, variantWidths } from './images.ts';
import { keyFromUploadsUrl } from './storage.ts';
import { MuseumsService } from '../plugins/museums/public.ts';

describe('core: image variants of existing images', function () {
  this.timeout(120_000);
  let app: TestApp;
  const dataDir = path.join(os.tmpdir(), `curio-variants-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);

  before(async () => {
    app = await startTestApp({ dataDir, storage: { driver: 'local' } });
  });
  after(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const runJob = async () => {
    const job = await app.jobs.enqueue(IMAGE_VARIANTS_JOB, {}, { uniqueKey: IMAGE_VARIANTS_JOB, maxAttempts: 1 });
    for (let i = 0; i < 300; i++) {
      const j = await app.jobs.get(job.id);
      if (j?.status === 'done' || j?.status === 'failed') return j;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the variants job did not finish');
  };
  const uploads = () => (app.contexts.get('accounts') as any).uploads;

  it('makes variants of an existing avatar with progress, skips them the second time, and the sweep keeps them only with their master', async () => {
    const u = await app.user();
    const png = await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 120, g: 40, b: 90 } } }).png().toBuffer();
    // an image stored before uploads queued their variants: no job queued at upload
    const hook = uploads().onImageStored;
    uploads().onImageStored = null;
    let r: any;
    try {
      r = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'me.png', type: 'image/png', data: png }]);
    } finally {
      uploads().onImageStored = hook;
    }
    expect(r.status, r.text).to.equal(200);
    const key = keyFromUploadsUrl(r.body.profileImageUrl)!;
    const master = await sharp(await app.storage.read(key)).metadata();
    const widths = variantWidths(master.width!);

    const job = await runJob();
    expect(job.status, job.error ?? '').to.equal('done');
    // what was made is recorded for the API (core_images: describeImages)
    const row = await app.knex('core_images').where({ key }).first();
    expect(row).to.include({ width: master.width, height: master.height });
    expect(row.widths.map(Number)).to.deep.equal(widths);
    expect(job.progress!.total).to.be.at.least(1);
    expect(job.progress!.done).to.equal(job.progress!.total);
    expect(job.result.made).to.be.at.least(1);
    for (const w of widths) {
      for (const f of ['avif', 'webp', 'jpg'] as const) {
        const res = await app.client().raw('GET', app.storage.url(variantKey(key, w, f)));
        expect(res.status, `${w} ${f}`).to.equal(200);
        expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).to.equal(w);
      }
    }
    const again = await runJob();
    expect(again.result.made).to.equal(0);
    expect(again.result.skipped).to.equal(again.result.total);

    // the sweep: kept while the avatar is the member's, gone once it is replaced
    const variant = variantKey(key, widths[0], 'webp');
    await uploads().sweepStorage({ olderThanMs: 0 });
    expect(await app.storage.exists(variant)).to.equal(true);
    const r2 = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'me2.png', type: 'image/png', data: png }]);
    expect(r2.status).to.equal(200);
    await uploads().sweepStorage({ olderThanMs: 0 });
    expect(await app.storage.exists(variant)).to.equal(false);
  });

  it('queues the variants of a new upload (avatar, group cover…) at upload; the row keeps naming the master, whose variants then exist', async () => {
    const u = await app.user();
    const jpg = await sharp({ create: { width: 1000, height: 800, channels: 3, background: { r: 20, g: 140, b: 90 } } }).jpeg().toBuffer();
    const r = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: jpg }]);
    expect(r.status, r.text).to.equal(200);
    const avatarKey = keyFromUploadsUrl(r.body.profileImageUrl)!;
    expect(avatarKey).to.not.match(/_w\d+\./);
    const g = await u.post('/api/groups', { name: `Variants ${Date.now()}`, description: 'Covers with variants' });
    expect(g.status, g.text).to.be.oneOf([200, 201]);
    const cover = await u.upload(`/api/groups/${g.body.id}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: jpg }]);
    expect(cover.status, cover.text).to.equal(200);
    const coverKey = keyFromUploadsUrl(cover.body.imageUrl)!;
    for (const key of [avatarKey, coverKey]) {
      const queued = await app.knex('core_jobs').where({ name: IMAGE_VARIANT_JOB }).whereRaw(`payload->>'key' = ?`, [key]).first('id');
      expect(queued, `variants job of ${key}`).to.not.equal(undefined);
      const j = await waitJob(queued.id);
      expect(j.status, j.error ?? '').to.equal('done');
      const widths = variantWidths((await sharp(await app.storage.read(key)).metadata()).width!);
      for (const w of widths) for (const f of ['avif', 'webp', 'jpg'] as const) expect(await app.storage.exists(variantKey(key, w, f)), `${key} ${w} ${f}`).to.equal(true);
    }
    // the API still answers the masters (the web derives the srcset from them)
    expect((await app.knex('users').where({ id: u.me.id }).first('profile_image_url')).profile_image_url).to.equal(r.body.profileImageUrl);
    // replaced: the old avatar's variants go with it at once (no copy of it stays until the sweep)
    const oldVariants = variantWidths((await sharp(await app.storage.read(avatarKey)).metadata()).width!).map((w) => variantKey(avatarKey, w, 'webp'));
    const r2 = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'me2.jpg', type: 'image/jpeg', data: jpg }]);
    expect(r2.status, r2.text).to.equal(200);
    expect(await app.storage.exists(avatarKey)).to.equal(false);
    for (const k of oldVariants) expect(await app.storage.exists(k), k).to.equal(false);
    // and what the API told of it (its row in core_images: size, widths, placeholder)
    expect(await app.knex('core_images').where({ key: avatarKey }).first()).to.equal(undefined);
  });

  it('tells beside an image URL which variant widths exist, its size and placeholder (imageInfo, featuredImageInfo); null before the variants and for external images', async () => {
    const u = await app.user();
    const jpg = await sharp({ create: { width: 1000, height: 800, channels: 3, background: { r: 200, g: 120, b: 40 } } }).jpeg().toBuffer();
    const g = await u.post('/api/groups', { name: `Widths ${Date.now()}`, description: 'A cover whose widths the API tells' });
    expect(g.status, g.text).to.be.oneOf([200, 201]);
    // the upload's variants job held back: the API says nothing yet (the page shows the master)
    const hook = uploads().onImageStored;
    let queueLater: string | null = null;
    uploads().onImageStored = async (key: string) => {
      queueLater = key;
    };
    let cover: any;
    try {
      cover = await u.upload(`/api/groups/${g.body.id}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: jpg }]);
    } finally {
      uploads().onImageStored = hook;
    }
    expect(cover.status, cover.text).to.equal(200);
    const before = await u.get(`/api/groups/${g.body.id}`);
    expect(before.status, before.text).to.equal(200);
    expect(before.body.imageInfo).to.equal(null);
    // the job runs: the answer lists exactly the widths made (1000 px wide master: 320, 640 and its own)
    expect(queueLater).to.equal(keyFromUploadsUrl(cover.body.imageUrl));
    await hook(queueLater!);
    const queued = await app.knex('core_jobs').where({ name: IMAGE_VARIANT_JOB }).whereRaw(`payload->>'key' = ?`, [queueLater]).first('id');
    expect((await waitJob(queued.id)).status).to.equal('done');
    const after = await u.get(`/api/groups/${g.body.id}`);
    const info = after.body.imageInfo;
    expect(info).to.include({ width: 1000, height: 800 });
    expect(info.widths).to.deep.equal([320, 640, 1000]);
    expect(info.blurhash).to.be.a('string').with.length.greaterThan(5);
    for (const w of info.widths) for (const f of ['avif', 'webp', 'jpg'] as const) expect(await app.storage.exists(variantKey(queueLater!, w, f)), `${w} ${f}`).to.equal(true);
    // the same image as a museum's featured image (its page tells too), and an external one: null
    const museums = app.services.get(MuseumsService);
    const own = await museums.createMuseum({ name: `Widths museum ${Date.now()}`, address: '1 Rue des Images', city: 'Lyon', country: 'France', featuredImage: cover.body.imageUrl } as any, null);
    const m = await app.client().get(`/api/museums/${own.id}`);
    expect(m.status, m.text).to.equal(200);
    expect(m.body.featuredImageInfo).to.deep.equal(info);
    expect((await app.client().get(`/api/museums/slug/${own.slug}`)).body.featuredImageInfo).to.deep.equal(info);
    const ext = await museums.createMuseum({ name: `External museum ${Date.now()}`, address: '2 Rue des Images', city: 'Lyon', country: 'France', featuredImage: 'https://upload.wikimedia.org/x.jpg' } as any, null);
    expect((await app.client().get(`/api/museums/${ext.id}`)).body.featuredImageInfo).to.equal(null);
  });

  const waitJob = async (id: number) => {
    for (let i = 0; i < 300; i++) {
      await app.jobs.runDue();
      const j = await app.jobs.get(id);
      if (j?.status === 'done' || j?.status === 'failed') return j;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('the variants job of an upload did not finish');
  };
});
