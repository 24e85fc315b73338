/**
 * The data archive (issue 24): a member who used every feature asks for it, it is built in the
 * background, they are notified (and emailed), and they alone download it for 7 days. The ZIP is
 * opened with a real unzip library and every file is checked, media byte for byte; another
 * member's private data never appears. Run on local disk and on an S3-compatible store.
 */
import { expect } from 'chai';
import { unzip } from '../../../core/testing/zip.ts';
import { startTestApp, waitFor, type TestApp } from '../../../core/testing/index.ts';
import { startTestS3, type TestS3 } from '../../../core/testing/s3.ts';
import { activeMember, type ActiveMember } from './data-fixture.ts';

function csv(b: Buffer): string[][] {
  return b
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
}

for (const driver of ['local', 's3'] as const) {
  describe(`accounts: the data archive (issue 24, ${driver} storage)`, function () {
    this.timeout(240_000);
    let app: TestApp;
    let s3: TestS3 | null = null;
    let w: ActiveMember;
    before(async () => {
      if (driver === 's3') s3 = await startTestS3();
      app = await startTestApp(s3 ? { storage: s3.storageConfig() } : {});
      w = await activeMember(app);
    });
    after(async () => {
      await app?.close();
      await s3?.close();
    });

    it('builds a ZIP of everything the member put in, for them alone, once a day', async () => {
      const anon = await app.client().post('/api/user/exports');
      expect(anon.status).to.equal(401);
      const asked = await w.me.post('/api/user/exports');
      expect(asked.status, asked.text).to.equal(202);
      expect(asked.body).to.include({ status: 'queued', downloadUrl: null });
      const again = await w.me.post('/api/user/exports');
      expect(again.status).to.equal(429);
      expect(again.body.message).to.equal('You can download your data once a day. Please try again later.');

      const ready = await waitFor(
        async () => {
          await app.jobs.runDue();
          const l = await w.me.get('/api/user/exports');
          return l.body.items[0]?.status === 'ready' ? l.body : null;
        },
        { timeout: 60_000, interval: 250 },
      );
      const x = ready.items[0];
      expect(x.id).to.equal(asked.body.id);
      expect(x.downloadUrl).to.equal(`/api/user/exports/${x.id}/download`);
      expect(new Date(x.expiresAt).getTime() - Date.now()).to.be.within(6.9 * 86400_000, 7.01 * 86400_000);
      expect(ready.nextAllowedAt).to.be.a('string');

      // told in the app, and by email (the address is confirmed)
      const inbox = (await w.me.get('/api/notifications?limit=50')).body;
      const items = Array.isArray(inbox) ? inbox : inbox.items;
      expect(items.some((n: any) => n.title === 'Your data is ready' && n.link === '/profile?settings=data')).to.equal(true);
      expect(await app.knex('core_jobs').where({ unique_key: `mail:accounts.export:${x.id}` })).to.have.length(1);

      // only its owner, signed in, may download it; /uploads never serves it
      expect((await app.client().get(x.downloadUrl)).status).to.equal(401);
      expect((await w.friend.get(x.downloadUrl)).status).to.equal(404);
      const key = (await app.knex('accounts_exports').where({ id: x.id }).first('storage_key')).storage_key;
      expect(key).to.match(/^private\/exports\//);
      expect((await app.client().raw('GET', `/uploads/${key}`)).status).to.equal(404);
      const res = await w.me.raw('GET', x.downloadUrl);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/zip');
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="curio-data-\d{4}-\d\d-\d\d\.zip"$/);
      const zip = Buffer.from(await res.arrayBuffer());
      expect(zip.length).to.equal(x.size);
      const files = await unzip(zip);
      const json = (n: string) => JSON.parse(files.get(n)!.toString('utf8'));

      for (const n of ['README.html', 'profile.json', 'settings.json', 'insights.json', 'comments.json', 'follows.csv', 'followers.csv', 'museum-follows.csv', 'check-ins.csv', 'badges.json', 'communities.json', 'events.json', 'messages.json', 'notifications.json', 'sessions.json', 'plans.json'])
        expect(files.has(n), n).to.equal(true);
      expect(json('plans.json').map((p: any) => p.title)).to.deep.equal(w.myTexts.filter((t) => t.startsWith('Museum day')));

      const profile = json('profile.json');
      expect(profile).to.include({ id: w.me.me.id, username: w.me.me.username, email: w.me.me.email, firstName: 'Mina', lastName: 'Data' });
      expect(profile.bio).to.match(/^I love small museums/);
      expect(json('settings.json').preferences).to.include({ weeklyDigest: true });
      expect(json('settings.json')).to.deep.include({ interests: ['Art Museums'], home: { city: null, latitude: 45.76, longitude: 4.84 }, onboarding: 'done' });
      expect(json('sessions.json').length).to.be.greaterThan(0);

      const insights = json('insights.json');
      expect(insights.map((p: any) => p.id).sort()).to.deep.equal([...w.postIds].sort());
      const first = insights.find((p: any) => p.id === w.postIds[0]);
      expect(first).to.include({ likesCount: 1, commentsCount: 1, museumId: w.museumId });
      expect(first.content).to.match(/^My first insight/);
      const video = insights.find((p: any) => p.id === w.postIds[1]);
      expect(video.media.length).to.be.greaterThan(0);
      expect(json('comments.json').map((c: any) => c.content)).to.have.length(2);
      expect(json('comments.json')[0].content).to.match(/^Nice one/);
      expect(json('comments.json')[1].content).to.match(/^Second thought/);
      // others' words are not theirs: the friend's answer under their comment is not in the archive
      expect(JSON.stringify(json('comments.json'))).to.not.include('friend answer to your comment');

      // media byte for byte, as stored
      const avatar = profile.profileImage as string;
      const stored = async (url: string) => Buffer.from(await (await app.client().raw('GET', url)).arrayBuffer());
      expect(files.get(avatar)!.equals(await stored(w.uploads[0]))).to.equal(true);
      // a photo insight: each photo's stored original, in order, with its alt text
      const photoPost = insights.find((p: any) => p.id === w.postIds[2]);
      expect(photoPost.type).to.equal('photo');
      expect(photoPost.photos.map((p: any) => p.alt.replace(/ [0-9a-f]{6}$/, ''))).to.deep.equal(['Gallery view 1', 'Gallery view 2']);
      const photoUrls = (await app.knex('insights_photos').where({ post_id: w.postIds[2] }).orderBy('position').select('url')).map((r: any) => r.url);
      expect(photoUrls).to.have.length(2);
      for (const [i, u] of photoUrls.entries()) expect(files.get(photoPost.photos[i].file)!.equals(await stored(u)), `photo ${i + 1}`).to.equal(true);
      const videoUrl = (await app.knex('insights_posts').where({ id: w.postIds[1] }).first('video_url')).video_url;
      const videoEntry = video.media.find((m: string) => m.endsWith(videoUrl.split('/').pop()));
      expect(files.get(videoEntry)!.equals(await stored(videoUrl))).to.equal(true);
      const eventsPart = json('events.json');
      expect(eventsPart.meetupsOrganised.map((e: any) => e.id)).to.deep.equal([w.meetupId]);
      const photoEntry = eventsPart.photos[0].file;
      const photoUrl = (await app.knex('events_photos').where({ id: eventsPart.photos[0].id }).first('url')).url;
      expect(files.get(photoEntry)!.equals(await stored(photoUrl))).to.equal(true);
      const msgs = json('messages.json');
      expect(msgs.sent.map((m: any) => m.text.replace(/ [0-9a-f]{6}$/, ''))).to.deep.equal(['Hello friend', 'See the photo']);
      expect(msgs.conversations[0].with).to.deep.equal([w.friend.me.username]);
      const imageEntry = msgs.sent[1].images[0];
      const imageUrl = (await app.knex('messages_images').where({ uploader_id: w.me.me.id }).first('url')).url;
      expect(files.get(imageEntry)!.equals(await stored(imageUrl))).to.equal(true);

      // CSV files
      expect(csv(files.get('follows.csv')!)[0]).to.deep.equal(['username', 'slug', 'profile', 'since']);
      expect(csv(files.get('follows.csv')!).slice(1).map((r) => r[0])).to.deep.equal([w.friend.me.username]);
      expect(csv(files.get('followers.csv')!).slice(1).map((r) => r[0])).to.deep.equal([w.friend.me.username]);
      expect(csv(files.get('museum-follows.csv')!).slice(1).map((r) => Number(r[0]))).to.deep.equal([w.museumId]);
      expect(csv(files.get('check-ins.csv')!).slice(1).map((r) => Number(r[0]))).to.deep.equal([w.museumId]);

      const communities = json('communities.json');
      expect(communities.memberships.map((m: any) => m.communityId)).to.deep.equal([w.communityId]);
      expect(communities.posts[0].pollOptions).to.deep.equal(['North', 'South']);
      expect(communities.pollVotes).to.deep.equal([{ postId: communities.posts[0].id, optionIndex: 1, votedAt: communities.pollVotes[0].votedAt }]);
      expect(communities.comments[0].content).to.match(/^North, surely/);
      expect(json('badges.json')).to.be.an('array');
      expect(json('notifications.json').notifications.length).to.be.greaterThan(0);

      // every text the member wrote is in it; another member's private words never are
      const all = [...files.entries()].filter(([n]) => !n.startsWith('media/')).map(([, b]) => b.toString('utf8')).join('\n');
      for (const t of w.myTexts) expect(all, t).to.include(t);
      for (const t of w.othersPrivate) expect(all, t).to.not.include(t);
      expect(files.get('messages.json')!.toString('utf8')).to.not.include('Got it'); // the friend's reply is theirs (only its notification to the member is the member's)
      expect(all).to.not.include(w.third.me.email);

      const readme = files.get('README.html')!.toString('utf8');
      for (const n of ['insights.json', 'follows.csv', 'messages.json']) expect(readme).to.include(`href="${n}"`);

      // after 7 days the link is gone, and the retention job removes the file
      app.jobs.setClock(new Date(Date.now() + 7 * 86400_000 + 60_000));
      try {
        expect((await w.me.get(x.downloadUrl)).status).to.equal(404);
        await app.jobs.runDue();
      } finally {
        app.jobs.setClock(null);
      }
      expect(await app.storage.exists(key)).to.equal(false);
    });

    if (driver === 'local')
      it('allows exactly one archive a day under concurrent requests', async () => {
        const u = await app.user();
        const answers = await Promise.all(Array.from({ length: 8 }, () => u.post('/api/user/exports')));
        expect(answers.map((a) => a.status).sort()).to.deep.equal([202, 429, 429, 429, 429, 429, 429, 429]);
        expect(await app.knex('accounts_exports').where({ user_id: u.me.id })).to.have.length(1);
      });
  });
}
