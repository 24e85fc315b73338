/**
 * Files on disk that nothing references: the temporary folder swept at start-up (what crashed or
 * stopped processes left), and the periodic job deleting stored files that no plugin's rows
 * reference once they are an hour old. Plugins declare their files with `ctx.uploads.ownFiles`;
 * the core knows no feature.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, RUN_ID, waitFor, type TestApp } from '../testing/index.ts';
import { STORAGE_SWEEP_JOB } from '../app.ts';
import { buildWorld, must, type World } from './fixtures/world.ts';
import { haveFfmpeg, mp4WithLocation, noisyJpeg } from './fixtures/corpus.ts';
import { signUp, startChild, type Child } from './fixtures/child.ts';
import http from 'node:http';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath ?? (d as any).path, d.name));
}

/** Starts a video upload declaring 50 MB and sends `mb` of it; the request stays open. */
function startUpload(url: string, cookie: string, mb: number): Promise<http.ClientRequest> {
  const boundary = `----kill${hex()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.webm"\r\nContent-Type: video/webm\r\n\r\n`);
  const u = new URL(`${url}/api/posts/video`);
  const req = http.request({
    host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + 50 * 1024 * 1024, cookie, origin: url },
  });
  req.on('error', () => undefined);
  req.write(head);
  return (async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < mb; i++) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
    return req;
  })();
}

const hex = () => crypto.randomBytes(16).toString('hex');
const TWO_HOURS_AGO = () => new Date(Date.now() - 2 * 60 * 60 * 1000);

describe('quality: files nothing references', function () {
  this.timeout(300_000);
  let app: TestApp;
  let w: World;
  const dataDir = path.join(os.tmpdir(), `curio-sweep-${RUN_ID}-${process.pid}-${hex().slice(0, 6)}`);
  const tmp = path.join(dataDir, 'tmp');
  const host = os.hostname();
  const left = {
    loose: path.join(tmp, 'a1b2c3d4e5f6'),
    deadPid: path.join(tmp, `${host}-999999999-deadbeef`),
    ourPidBefore: path.join(tmp, `${host}-${process.pid}-00000000`),
    liveOther: path.join(tmp, `${host}-1-0badcafe`),
    otherHost: path.join(tmp, `some-other-host-4242-0badcafe`),
  };

  before(async () => {
    // What a SIGKILL during uploads leaves: loose files and the folders of processes now gone,
    // including one whose pid this very process now has (a restart in a container).
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(left.loose, Buffer.alloc(1024));
    for (const d of Object.values(left).slice(1)) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, hex()), Buffer.alloc(4096));
    }
    // on local disk whatever TEST_STORAGE says: files are aged by their mtime here (the sweep of a bucket: core/storage-s3.test.ts)
    app = await startTestApp({ dataDir, storage: { driver: 'local' } });
    w = await buildWorld(app);
  });

  after(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('start-up sweeps the temporary folder: what stopped processes left is gone, running ones keep theirs', () => {
    expect(fs.existsSync(left.loose), 'a loose temporary file').to.equal(false);
    expect(fs.existsSync(left.deadPid), "the folder of a process that is gone").to.equal(false);
    expect(fs.existsSync(left.ourPidBefore), 'the folder of an earlier process with our pid').to.equal(false);
    expect(fs.existsSync(left.liveOther), 'the folder of a running process (pid 1)').to.equal(true);
    expect(fs.existsSync(left.otherHost), "another host's recent folder").to.equal(true);
  });

  it('the periodic job deletes stored files no row references once an hour old, and keeps every referenced one', async function () {
    const uploadsRoot = path.join(dataDir, 'uploads');
    const fileOf = (url: string) => path.join(uploadsRoot, url.replace(/^\/uploads\//, ''));
    const age = (url: string) => fs.utimesSync(fileOf(url), TWO_HOURS_AGO(), TWO_HOURS_AGO());

    // referenced, through the real routes of six plugins
    const avatar = must(await w.c.traveler.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'avatar');
    const cover = must(await w.c.creator.upload(`/api/communities/${w.community.id}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'community image');
    const photos = must<any[]>(await w.c.member.upload(`/api/meetups/${w.meetup.id}/photos`, [{ field: 'files', name: 'p.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'meetup photo');
    const images = must<any[]>(await w.c.member.upload('/api/messages/images', [{ field: 'files', name: 'm.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'message image');
    // a museum's accessibility photo, and one a pending suggestion carries (issue 20)
    const access = must(await w.c.manager.upload(`/api/museums/${w.museumA.id}/accessibility/stepFreeEntrance/photo`, [{ field: 'photo', name: 'a.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'accessibility photo');
    const suggested = must(await w.c.member.upload(`/api/museums/${w.museumA.id}/accessibility/seating/photo-suggestion`, [{ field: 'photo', name: 's.jpg', type: 'image/jpeg', data: await noisyJpeg() }]), 'suggested accessibility photo');
    const referenced: string[] = [avatar.profileImageUrl, cover.imageUrl, photos[0].url, photos[0].thumbnailUrl, images[0].url, images[0].thumbnailUrl, access.accessibility.stepFreeEntrance.photo, suggested.suggestedChanges.accessibility.seating.photo];
    if (haveFfmpeg()) {
      const video = must(await w.c.traveler.upload('/api/posts/video', [{ field: 'video', name: 'v.mp4', type: 'video/mp4', data: await mp4WithLocation() }]), 'video');
      referenced.push(video.videoUrl, video.posterUrl);
      // and one shared in an insight
      const shared = must(await w.c.member.upload('/api/posts/video', [{ field: 'video', name: 'v.mp4', type: 'video/mp4', data: await mp4WithLocation() }]), 'video');
      must(await w.c.member.post('/api/posts', { type: 'video', videoUrl: shared.videoUrl, content: 'sweep' }), 'video insight');
      referenced.push(shared.videoUrl, shared.posterUrl);
    }
    expect(referenced.every(Boolean), JSON.stringify(referenced)).to.equal(true);
    for (const u of referenced) age(u);

    // not referenced: files of claimed prefixes, old and recent, and one under a prefix no plugin claims
    const write = (key: string, old: boolean) => {
      const f = path.join(uploadsRoot, key);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, Buffer.alloc(2048));
      if (old) fs.utimesSync(f, TWO_HOURS_AGO(), TWO_HOURS_AGO());
      return `/uploads/${key}`;
    };
    const orphans = [
      write(`avatars/${hex()}.jpg`, true),
      write(`communities/${hex()}.jpg`, true),
      write(`events/${w.meetup.id}/${hex()}.jpg`, true),
      write(`events/${w.meetup.id}/${hex()}_thumb.jpg`, true),
      write(`insights/videos/${hex()}.mp4`, true),
      write(`insights/videos/${hex()}_poster.jpg`, true),
      write(`messages/999999/${hex()}.jpg`, true),
      write(`museums/accessibility/${hex()}.jpg`, true),
    ];
    const recentOrphan = write(`avatars/${hex()}.jpg`, false);
    const unclaimed = write(`elsewhere/${hex()}.jpg`, true);

    const job = await app.jobs.enqueue(STORAGE_SWEEP_JOB);
    const done = await waitFor(async () => {
      const j = await app.jobs.get(job.id);
      return j && ['done', 'failed'].includes(j.status) ? j : null;
    }, { timeout: 30_000 });
    expect(done.status, done.error ?? '').to.equal('done');

    for (const u of orphans) expect(fs.existsSync(fileOf(u)), `unreferenced ${u} deleted`).to.equal(false);
    for (const u of referenced) {
      expect(fs.existsSync(fileOf(u)), `referenced ${u} kept`).to.equal(true);
      expect((await app.client().raw('HEAD', u)).status, `${u} still served`).to.equal(200);
    }
    expect(fs.existsSync(fileOf(recentOrphan)), 'an unreferenced file less than an hour old is kept (its row may be on the way)').to.equal(true);
    expect(fs.existsSync(fileOf(unclaimed)), 'files under a prefix no enabled plugin claims are left alone').to.equal(true);
    expect(done.result.deleted).to.equal(orphans.length);
  });

  it('uploads cut by a SIGKILL leave nothing in the temporary folder after the restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-kill-uploads-'));
    let child: Child | null = null;
    try {
      child = await startChild({ databaseUrl: null, dataDir: dir });
      const c = await signUp(child, 'killup');
      const reqs = await Promise.all([1, 2, 3].map(() => startUpload(child!.url, c.cookieHeader(), 4)));
      await waitFor(async () => filesUnder(path.join(dir, 'tmp')).filter((f) => fs.statSync(f, { throwIfNoEntry: false })?.size).length === 3, { timeout: 20_000 });
      await child.kill('SIGKILL');
      for (const r of reqs) r.destroy();
      expect(filesUnder(path.join(dir, 'tmp')).length, 'half-written uploads on disk after the kill').to.equal(3);
      child = await startChild({ databaseUrl: null, dataDir: dir });
      expect(filesUnder(path.join(dir, 'tmp')), 'temporary files after the restart').to.deep.equal([]);
    } finally {
      await child?.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('one occurrence of the hourly job is pending at a time however many processes queue it', async () => {
    // every process queues the repeating jobs at start (Jobs.ensureSchedules), and a finished run
    // queues the next: concurrent calls leave exactly one pending occurrence
    await Promise.all([1, 2, 3, 4].map(() => app.jobs.ensureSchedules()));
    await Promise.all([1, 2, 3, 4].map(() => app.jobs.ensureSchedules()));
    const pending = await app.knex('core_jobs').where({ name: STORAGE_SWEEP_JOB }).whereIn('status', ['queued', 'running']).count({ n: '*' });
    expect(Number(pending[0].n), 'pending occurrences').to.equal(1);
  });
});
