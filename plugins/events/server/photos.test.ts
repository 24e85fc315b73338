import { expect } from 'chai';
import sharp from 'sharp';
import { sharedApp, setDeletionPending, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { gpsJpeg, makeCommunity, makeMeetup, makeMuseum, pngBytes } from './test-helpers.ts';

/** Reads IFD0 of an EXIF block (as sharp returns it) and answers whether it points to a GPS IFD (tag 0x8825). */
function hasGpsIfd(exif: Buffer): boolean {
  let off = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = exif.subarray(off);
  const le = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  const n = u16(ifd0);
  for (let i = 0; i < n; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

describe('events: meetup photos and discussion', () => {
  let app: TestApp;
  let organizer: SignedInClient;
  let member: SignedInClient;
  let otherMember: SignedInClient;
  let outsider: SignedInClient;
  let communityId: number;
  let meetup: any;

  const file = (data: Buffer, name = 'photo.png', type = 'image/png') => ({ field: 'files', name, type, data });

  before(async () => {
    app = await sharedApp();
    [organizer, member, otherMember, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user(), app.user()]);
    communityId = await makeCommunity(organizer, [member, otherMember]);
    meetup = await makeMeetup(organizer, communityId);
  });

  it('a member uploads photos with a caption; they are re-encoded, thumbnailed and listed for others', async () => {
    const r = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes(64, 48)), file(await pngBytes(30, 30), 'second.gif', 'image/gif')], { caption: 'In the galleries' });
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.have.length(2);
    const p = r.body[0];
    expect(p).to.include({ eventId: meetup.id, caption: 'In the galleries', userId: member.me.id, width: 64, height: 48, canDelete: true });
    expect(p.url).to.match(/^\/uploads\/events\/\d+\/[0-9a-f]+\.jpg$/);
    expect(p.thumbnailUrl).to.match(/_thumb\.jpg$/);
    const img = await app.client().raw('GET', p.url);
    expect(img.status).to.equal(200);
    expect(img.headers.get('content-type')).to.equal('image/jpeg');
    const thumb = await app.client().raw('GET', p.thumbnailUrl);
    expect(thumb.status).to.equal(200);

    const list = await otherMember.get(`/api/meetups/${meetup.id}/photos`);
    expect(list.status).to.equal(200);
    expect(list.body.map((x: any) => x.id)).to.include.members(r.body.map((x: any) => x.id));
    expect(list.body.find((x: any) => x.id === p.id).canDelete).to.equal(false);
    expect(list.body.find((x: any) => x.id === p.id).user.username).to.equal(member.me.username);
    const seen = await otherMember.get(`/api/meetups/${meetup.id}`);
    expect(seen.body.photoCount).to.be.at.least(2);
    expect(seen.body.canUploadPhotos).to.equal(true);
  });

  it('strips GPS and other EXIF metadata from the stored copy', async () => {
    const original = await gpsJpeg();
    const meta = await sharp(original).metadata();
    expect(meta.exif, 'the test image carries EXIF').to.be.instanceOf(Buffer);
    expect(meta.exif!.includes(Buffer.from('TestCam'))).to.equal(true);
    expect(hasGpsIfd(meta.exif!), 'the test image carries GPS').to.equal(true);
    const r = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(original, 'trip.jpg', 'image/jpeg')]);
    expect(r.status, r.text).to.equal(201);
    for (const url of [r.body[0].url, r.body[0].thumbnailUrl]) {
      const res = await app.client().raw('GET', url);
      const stored = Buffer.from(await res.arrayBuffer());
      const m = await sharp(stored).metadata();
      expect(m.exif, url).to.equal(undefined);
      expect(stored.includes(Buffer.from('TestCam')), url).to.equal(false);
      expect(stored.includes(Buffer.from('GPS')), url).to.equal(false);
    }
  });

  it('refuses a renamed non-image, checked on content', async () => {
    const fake = Buffer.from('%PDF-1.4 this is not a picture at all'.repeat(20));
    const r = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(fake, 'holiday.jpg', 'image/jpeg')]);
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('Only image files (PNG, JPG, GIF) can be uploaded');
    // one bad file fails the whole upload: nothing is stored from it
    const before = await app.knex('events_photos').where({ event_id: meetup.id }).count({ n: '*' }).first();
    const mixed = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes()), file(fake, 'b.png', 'image/png')]);
    expect(mixed.status).to.equal(400);
    const after = await app.knex('events_photos').where({ event_id: meetup.id }).count({ n: '*' }).first();
    expect(Number(after!.n)).to.equal(Number(before!.n));
  });

  it('refuses a file over 10 MB with 413', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const r = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(big, 'huge.png')]);
    expect(r.status).to.equal(413);
    expect(r.body.message).to.equal('Each photo must be at most 10 MB');
  });

  it('needs at least one photo', async () => {
    const r = await member.upload(`/api/meetups/${meetup.id}/photos`, [], { caption: 'nothing' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('Please select at least one photo');
  });

  it('is for members only, and only where photo sharing is on', async () => {
    const r = await outsider.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes())]);
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('Only members can upload photos');
    expect((await app.client().upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes())])).status).to.equal(401);
    const closed = await makeMeetup(organizer, communityId, { allowPhotoSharing: false });
    const off = await member.upload(`/api/meetups/${closed.id}/photos`, [file(await pngBytes())]);
    expect(off.status).to.equal(403);
    expect(off.body.message).to.equal('Photo sharing is turned off for this event');
    // an attendee from outside the community (an "anyone" meetup) may share photos
    const open = await makeMeetup(organizer, communityId, { whoCanJoin: 'anyone' });
    await outsider.post(`/api/meetups/${open.id}/join`, {});
    expect((await outsider.upload(`/api/meetups/${open.id}/photos`, [file(await pngBytes())])).status).to.equal(201);
  });

  it('a photo is deleted by its uploader or the organizer, files included', async () => {
    const up = await member.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes()), file(await pngBytes())]);
    const [p1, p2] = up.body;
    const denied = await otherMember.del(`/api/meetups/${meetup.id}/photos/${p1.id}`);
    expect(denied.status).to.equal(403);
    expect((await member.del(`/api/meetups/${meetup.id}/photos/${p1.id}`)).status).to.equal(200);
    expect((await app.client().raw('GET', p1.url)).status).to.equal(404);
    expect((await app.client().raw('GET', p1.thumbnailUrl)).status).to.equal(404);
    expect((await organizer.del(`/api/meetups/${meetup.id}/photos/${p2.id}`)).status).to.equal(200);
    expect((await organizer.del(`/api/meetups/${meetup.id}/photos/${p2.id}`)).status).to.equal(404);
  });

  it('discussion: members comment, outsiders cannot, comments can be turned off', async () => {
    const c = await member.post(`/api/meetups/${meetup.id}/comments`, { content: 'Shall we meet at the clock?' });
    expect(c.status, c.text).to.equal(201);
    expect((await outsider.post(`/api/meetups/${meetup.id}/comments`, { content: 'hi' })).status).to.equal(403);
    const list = await otherMember.get(`/api/meetups/${meetup.id}/comments`);
    expect(list.body.map((x: any) => x.content)).to.include('Shall we meet at the clock?');
    expect((await otherMember.get(`/api/meetups/${meetup.id}`)).body.commentCount).to.be.at.least(1);
    expect((await otherMember.del(`/api/meetups/${meetup.id}/comments/${c.body.id}`)).status).to.equal(403);
    expect((await organizer.del(`/api/meetups/${meetup.id}/comments/${c.body.id}`)).status).to.equal(200);
    const quiet = await makeMeetup(organizer, communityId, { allowComments: false });
    const off = await member.post(`/api/meetups/${quiet.id}/comments`, { content: 'hello' });
    expect(off.status).to.equal(403);
    expect(off.body.message).to.equal('Comments are turned off for this event');
  });
  it('a content restriction (admin moderation) refuses photos and comments with a clear message until lifted', async () => {
    const admin = await app.user({ role: 'Admin' });
    const restricted = await app.user();
    expect((await restricted.post(`/api/communities/${communityId}/join`, {})).status).to.equal(200);
    const before = await restricted.get(`/api/meetups/${meetup.id}`);
    expect(before.body).to.include({ canUploadPhotos: true, canComment: true, restricted: false });

    const mod = await admin.post('/api/admin/moderate-user', { userId: restricted.me.id, type: 'content_restriction', reason: 'Spam photos' });
    expect(mod.status, mod.text).to.equal(201);

    const photosBefore = (await organizer.get(`/api/meetups/${meetup.id}/photos`)).body.length;
    const refused = await restricted.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes())], { caption: 'Look' });
    expect(refused.status).to.equal(403);
    expect(refused.body.message).to.equal('Your account is restricted from sharing photos');
    expect((await organizer.get(`/api/meetups/${meetup.id}/photos`)).body).to.have.length(photosBefore);

    const comment = await restricted.post(`/api/meetups/${meetup.id}/comments`, { content: 'Buy cheap watches' });
    expect(comment.status).to.equal(403);
    expect(comment.body.message).to.equal('Your account is restricted from commenting');

    const seen = await restricted.get(`/api/meetups/${meetup.id}`);
    expect(seen.body).to.include({ canUploadPhotos: false, canComment: false, restricted: true });
    // others are not affected
    expect((await member.get(`/api/meetups/${meetup.id}`)).body).to.include({ canUploadPhotos: true, restricted: false });

    expect((await admin.post(`/api/admin/moderations/${mod.body.id}/lift`, { reason: 'appeal' })).status).to.equal(200);
    const after = await restricted.upload(`/api/meetups/${meetup.id}/photos`, [file(await pngBytes())]);
    expect(after.status, after.text).to.equal(201);
  });
});

describe("events: photo lists apply accounts' rule (blocks, mutes, pending deletion)", () => {
  let app: TestApp;
  const file = async () => ({ field: 'files', name: 'p.png', type: 'image/png', data: await pngBytes() });
  const ids = async (client: SignedInClient | ReturnType<TestApp['client']>, path: string) => {
    const r = await client.get(path);
    expect(r.status, `${path} ${r.text}`).to.equal(200);
    return (r.body as any[]).map((p) => p.id);
  };

  before(async () => {
    app = await sharedApp();
  });

  it('a meetup leaves out the photos of an uploader blocked either way or muted by the viewer, in SQL before the limit; the uploader still sees theirs', async () => {
    const [organizer, uploader, blockedByUploader, blocker, muter, bystander] = await Promise.all([
      app.user({ role: 'Ambassador' }),
      app.user(),
      app.user(),
      app.user(),
      app.user(),
      app.user(),
    ]);
    const admin = await app.user({ role: 'Admin' });
    const communityId = await makeCommunity(organizer, [uploader, blockedByUploader, blocker, muter, bystander]);
    const meetup = await makeMeetup(organizer, communityId);
    const path = `/api/meetups/${meetup.id}/photos`;
    const up = await uploader.upload(path, [await file()]);
    expect(up.status, up.text).to.equal(201);
    const photoId = up.body[0].id;
    const other = await bystander.upload(path, [await file()]);
    expect(other.status, other.text).to.equal(201);
    for (const c of [blockedByUploader, blocker, muter]) expect(await ids(c, path)).to.include(photoId);

    expect((await uploader.post(`/api/user/${blockedByUploader.me.id}/block`, {})).status).to.equal(200);
    expect((await blocker.post(`/api/user/${uploader.me.id}/block`, {})).status).to.equal(200);
    expect((await muter.post(`/api/user/${uploader.me.id}/mute`, {})).status).to.equal(200);

    for (const c of [blockedByUploader, blocker, muter]) {
      const seen = await ids(c, path);
      expect(seen, c.me.username).to.not.include(photoId);
      expect(seen, c.me.username).to.include(other.body[0].id);
    }
    expect(await ids(uploader, path)).to.include(photoId);
    expect(await ids(bystander, path)).to.include(photoId);
    expect(await ids(organizer, path)).to.include(photoId);
    expect(await ids(admin, path)).to.include(photoId);
    expect(await ids(app.client(), path)).to.include(photoId);
  });

  it('a museum event leaves out the photos of an uploader who blocked the viewer', async () => {
    const admin = await app.user({ role: 'Admin' });
    const [uploader, viewer] = await Promise.all([app.user(), app.user()]);
    const museum = await makeMuseum(app);
    const ev = await admin.post('/api/museum-events', { museumId: museum.id, title: 'Gallery talk', description: 'A talk.', date: '2031-10-02', startTime: '14:00', endTime: '15:00' });
    expect(ev.status, ev.text).to.equal(201);
    expect((await uploader.post(`/api/museum-events/${ev.body.id}/join`, { status: 'attending' })).status).to.be.oneOf([200, 201]);
    const path = `/api/museum-events/${ev.body.id}/photos`;
    const up = await uploader.upload(path, [await file()]);
    expect(up.status, up.text).to.equal(201);
    expect(await ids(viewer, path)).to.include(up.body[0].id);
    expect((await uploader.post(`/api/user/${viewer.me.id}/block`, {})).status).to.equal(200);
    expect(await ids(viewer, path)).to.not.include(up.body[0].id);
    expect(await ids(uploader, path)).to.include(up.body[0].id);
  });

  it('leaves out the photos of an uploader whose deletion is pending, except for Admins', async () => {
    const [organizer, uploader, member] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    const admin = await app.user({ role: 'Admin' });
    const communityId = await makeCommunity(organizer, [uploader, member]);
    const meetup = await makeMeetup(organizer, communityId);
    const path = `/api/meetups/${meetup.id}/photos`;
    const up = await uploader.upload(path, [await file()]);
    expect(up.status, up.text).to.equal(201);
    expect(await ids(member, path)).to.include(up.body[0].id);
    await setDeletionPending(app, uploader.me.id);
    expect(await ids(member, path)).to.not.include(up.body[0].id);
    expect(await ids(organizer, path)).to.not.include(up.body[0].id);
    expect(await ids(app.client(), path)).to.not.include(up.body[0].id);
    expect(await ids(admin, path)).to.include(up.body[0].id);
  });
});
