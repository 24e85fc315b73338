/**
 * Uploads in an S3-compatible bucket (s3rver on a loopback port, started here): stored streamed
 * with content type and immutable caching, served through /uploads/<key> (ranges too) or
 * redirected to MEDIA_PUBLIC_URL, deleted on replacement, swept when unreferenced, and copied
 * from local disk by `npm run storage:migrate`, idempotently.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import sharp from 'sharp';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startTestApp, type TestApp, type SignedInClient } from './testing/index.ts';
import { startTestS3, type TestS3 } from './testing/s3.ts';
import { S3Storage } from './storage-s3.ts';
import { ROOT } from './config.ts';

const run = promisify(execFile);

async function jpeg(w = 400, h = 300): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
}

async function objectBytes(s: S3Storage, key: string): Promise<Buffer> {
  const o = await s.client.send(new GetObjectCommand({ Bucket: s.bucket, Key: key }));
  return Buffer.from(await o.Body!.transformToByteArray());
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
}

describe('storage: S3-compatible bucket', function () {
  this.timeout(60_000);
  let s3: TestS3;
  let app: TestApp;
  let bucket: S3Storage;
  let alice: SignedInClient;

  before(async () => {
    s3 = await startTestS3();
    app = await startTestApp({ storage: s3.storageConfig() });
    bucket = app.storage as S3Storage;
    expect(bucket.bucket, 'the app stores in the test bucket').to.equal(s3.bucket);
    alice = await app.user();
  });
  after(async () => {
    await app?.close();
    await s3?.close();
  });

  it('stores an avatar in the bucket with its content type and a year of immutable caching, nothing on local disk', async () => {
    const r = await alice.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: await jpeg() }]);
    expect(r.status, r.text).to.equal(200);
    const url: string = r.body.profileImageUrl;
    expect(url).to.match(/^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/);
    const key = bucket.keyFromUrl(url)!;
    const head = await bucket.head(key);
    expect(head?.contentType).to.equal('image/jpeg');
    expect(head?.cacheControl).to.equal('public, max-age=31536000, immutable');
    expect(filesUnder(path.join(app.config.dataDir, 'uploads')), 'local uploads').to.deep.equal([]);
    expect(filesUnder(path.join(app.config.dataDir, 'tmp')), 'temporary files').to.deep.equal([]);

    // served through the app from the bucket, byte for byte, with the /uploads headers
    const res = await fetch(app.url + url);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/jpeg');
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(await objectBytes(bucket, key))).to.equal(true);
    expect((await sharp(body).metadata()).format).to.equal('jpeg');

    // a range (video seeking) and HEAD
    const part = await fetch(app.url + url, { headers: { range: 'bytes=2-11' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 2-11/${body.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(2, 12))).to.equal(true);
    const h = await fetch(app.url + url, { method: 'HEAD' });
    expect(h.status).to.equal(200);
    expect(h.headers.get('content-length')).to.equal(String(body.length));
    expect(h.headers.get('content-type')).to.equal('image/jpeg');

    // unknown keys and bad keys are 404 with a JSON message
    const missing = await fetch(app.url + '/uploads/avatars/0123456789abcdef0123456789abcdef.jpg');
    expect(missing.status).to.equal(404);
    expect((await missing.json()).message).to.equal('Not found');
    expect((await fetch(app.url + '/uploads/..%2Fsecret.jpg')).status).to.equal(404);
  });

  it('deletes the previous avatar from the bucket when it is replaced', async () => {
    const bob = await app.user();
    const first = await bob.upload('/api/user/profile-image', [{ field: 'image', name: 'a.jpg', type: 'image/jpeg', data: await jpeg(300, 300) }]);
    expect(first.status, first.text).to.equal(200);
    const firstKey = bucket.keyFromUrl(first.body.profileImageUrl)!;
    expect(await bucket.exists(firstKey)).to.equal(true);
    const second = await bob.upload('/api/user/profile-image', [{ field: 'image', name: 'b.jpg', type: 'image/jpeg', data: await jpeg(320, 320) }]);
    expect(second.status, second.text).to.equal(200);
    expect(await bucket.exists(firstKey), 'old avatar object').to.equal(false);
    expect(await bucket.exists(bucket.keyFromUrl(second.body.profileImageUrl)!)).to.equal(true);
  });

  it('the storage sweep lists the bucket and deletes only unreferenced objects', async () => {
    const carol = await app.user();
    const r = await carol.upload('/api/user/profile-image', [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: await jpeg() }]);
    expect(r.status, r.text).to.equal(200);
    const kept = bucket.keyFromUrl(r.body.profileImageUrl)!;
    const orphan = bucket.randomKey('avatars', 'jpg');
    await bucket.put(orphan, { buffer: await jpeg(10, 10) }, 'image/jpeg');
    const listed: string[] = [];
    for await (const f of bucket.list('avatars')) listed.push(f.key);
    expect(listed).to.include.members([kept, orphan]);
    // every object counts as old enough: only the reference decides
    const uploads = app.contexts.get('accounts')!.uploads;
    const swept = await uploads.sweepStorage({ olderThanMs: -60_000 });
    expect(swept.deleted).to.include(orphan);
    expect(swept.deleted).not.to.include(kept);
    expect(await bucket.exists(orphan)).to.equal(false);
    expect(await bucket.exists(kept)).to.equal(true);
  });

  it('with MEDIA_PUBLIC_URL, /uploads/<key> redirects to the CDN and stored URLs do not change', async () => {
    const cdn = await startTestApp({ storage: s3.storageConfig({ mediaPublicUrl: 'https://media.example.org/' }) });
    try {
      const dave = await cdn.user();
      const r = await dave.upload('/api/user/profile-image', [{ field: 'image', name: 'd.jpg', type: 'image/jpeg', data: await jpeg() }]);
      expect(r.status, r.text).to.equal(200);
      const url: string = r.body.profileImageUrl;
      expect(url, 'a key under /uploads, not the CDN URL').to.match(/^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/);
      const res = await fetch(cdn.url + url, { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal(`https://media.example.org/${url.slice('/uploads/'.length)}`);
      // the object is in the shared bucket, readable by the app without a CDN
      const plain = await fetch(app.url + url);
      expect(plain.status).to.equal(200);
    } finally {
      await cdn.close();
    }
  });

  it('a failed store leaves no temporary file behind', async () => {
    const tmp = path.join(os.tmpdir(), `curio-s3-put-${process.pid}`);
    fs.writeFileSync(tmp, await jpeg(20, 20));
    const broken = new S3Storage({ endpoint: s3.endpoint, bucket: 'no-such-bucket-here', forcePathStyle: true, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    try {
      let error: unknown = null;
      await broken.put('avatars/0123456789abcdef0123456789abcdef.jpg', { path: tmp }, 'image/jpeg').catch((e) => (error = e));
      expect(error, 'an error from the store').to.be.instanceOf(Error);
      expect(fs.existsSync(tmp)).to.equal(false);
    } finally {
      broken.close();
      fs.rmSync(tmp, { force: true });
    }
  });

  it('npm run storage:migrate copies local uploads into the bucket under the same keys, idempotently', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-migrate-'));
    try {
      const files: Record<string, Buffer> = {
        'avatars/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg': await jpeg(30, 30),
        'insights/videos/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.mp4': Buffer.alloc(6 * 1024 * 1024 + 17, 3), // over one multipart part
        'events/photos/cccccccccccccccccccccccccccccccc_thumb.jpg': await jpeg(12, 12),
      };
      for (const [k, data] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dataDir, 'uploads', k)), { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'uploads', k), data);
      }
      // one is already there (an interrupted earlier run): skipped, not copied again
      await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: 'avatars/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg', Body: files['avatars/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg'], ContentType: 'image/jpeg' }));
      const env = { ...process.env, ...s3.env(), DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' };
      const first = await run('npx', ['tsx', 'scripts/storage-migrate.ts'], { cwd: ROOT, env });
      expect(first.stdout).to.contain('3 local file(s): 2 copied, 1 already in bucket');
      for (const [k, data] of Object.entries(files)) {
        expect((await objectBytes(bucket, k)).equals(data), k).to.equal(true);
      }
      const video = await bucket.head('insights/videos/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.mp4');
      expect(video?.contentType).to.equal('video/mp4');
      expect(video?.cacheControl).to.equal('public, max-age=31536000, immutable');
      expect((await bucket.head('events/photos/cccccccccccccccccccccccccccccccc_thumb.jpg'))?.contentType).to.equal('image/jpeg');
      // served by the app under the URL rows already hold
      const served = await fetch(app.url + '/uploads/events/photos/cccccccccccccccccccccccccccccccc_thumb.jpg');
      expect(served.status).to.equal(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(files['events/photos/cccccccccccccccccccccccccccccccc_thumb.jpg'])).to.equal(true);

      const again = await run('npx', ['tsx', 'scripts/storage-migrate.ts'], { cwd: ROOT, env });
      expect(again.stdout).to.contain('3 local file(s): 0 copied, 3 already in bucket');
      expect(fs.existsSync(path.join(dataDir, 'uploads', 'avatars/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg')), 'local files are left in place').to.equal(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('storage:migrate refuses to run without a bucket configured', async () => {
    const env = { ...process.env, DATA_DIR: os.tmpdir(), STORAGE: 'local', DATABASE_URL: '', NODE_ENV: 'test' };
    const r = await run('npx', ['tsx', 'scripts/storage-migrate.ts'], { cwd: ROOT, env }).then(
      () => null,
      (e) => e,
    );
    expect(r?.code).to.equal(1);
    expect(r.stderr).to.contain('set STORAGE=s3');
  });
});
