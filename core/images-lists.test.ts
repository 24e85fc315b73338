/**
 * List and card answers tell which variant widths of each image exist (issue 23): museum lists and
 * cards (featuredImageInfo), community, group and event lists (imageInfo) and member summaries
 * (profileImageInfo: avatars beside posts, comments, members), after a real upload through the API
 * and the real variants job. The whole list costs one statement at most, whatever its length.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { startTestApp, uniqueName, type SignedInClient, type TestApp } from './testing/index.ts';
import { countStatements, type StatementCounter } from './testing/statements.ts';
import { keyFromUploadsUrl } from './storage.ts';
import { MuseumsService } from '../plugins/museums/public.ts';
import { makeCommunity, makeMeetup } from '../plugins/events/server/test-helpers.ts';
import { makeVideo } from '../plugins/insights/server/test-helpers.ts';

/** A GET that must answer 200: its body and how many statements its route issued. */
async function routeStatements(counter: StatementCounter, c: SignedInClient, path: string): Promise<{ body: any; total: number }> {
  const { res, log } = await counter.request(c, 'GET', path);
  expect(res.status, res.text).to.equal(200);
  return { body: res.body, total: log.route.length };
}

describe('core: list and card answers carry their images’ made widths', function () {
  this.timeout(180_000);
  let app: TestApp;
  let owner: SignedInClient;
  let viewer: SignedInClient;
  const word = uniqueName('Vitrail').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);

  /** A JPEG `width` px wide, its own colour. */
  const jpeg = (width: number, g: number) => sharp({ create: { width, height: Math.round(width * 0.6), channels: 3, background: { r: 180, g, b: 60 } } }).jpeg().toBuffer();

  /** Runs the queued jobs until every one of these stored images has its variants recorded (core_images). */
  async function variantsOf(urls: string[]) {
    const keys = urls.map((u) => keyFromUploadsUrl(u)!);
    for (let i = 0; i < 400; i++) {
      await app.jobs.runDue();
      const n = Number((await app.knex('core_images').whereIn('key', keys).count({ n: '*' }))[0].n);
      if (n === keys.length) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the variants jobs did not finish');
  }
  const infoOf = async (url: string) => {
    const r = await app.knex('core_images').where({ key: keyFromUploadsUrl(url) }).first();
    return { width: r.width, height: r.height, widths: [...r.widths].map(Number).sort((a, b) => a - b), blurhash: r.blurhash };
  };

  before(async () => {
    app = await startTestApp();
    owner = await app.user({ role: 'Ambassador' });
    viewer = await app.user();
  });
  after(async () => {
    await app?.close();
  });

  it('communities, groups, meetups and museums in lists; avatars in member summaries; external images and none: null', async () => {
    // an avatar, a community cover, a group cover and a meetup cover, uploaded through the API
    const avatar = await owner.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: await jpeg(500, 40) }]);
    expect(avatar.status, avatar.text).to.equal(200);
    const community = await makeCommunity(owner, [viewer], { name: `${word} circle` });
    const cc = await owner.upload(`/api/communities/${community}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: await jpeg(1000, 90) }]);
    expect(cc.status, cc.text).to.equal(200);
    const g = await owner.post('/api/groups', { name: `${word} sketchers`, description: 'Drawing in galleries' });
    expect(g.status, g.text).to.be.oneOf([200, 201]);
    const gc = await owner.upload(`/api/groups/${g.body.id}/image`, [{ field: 'image', name: 'g.jpg', type: 'image/jpeg', data: await jpeg(700, 140) }]);
    expect(gc.status, gc.text).to.equal(200);
    const meetup = await makeMeetup(owner, community, { title: `${word} at dusk` });
    const mc = await owner.upload(`/api/meetups/${meetup.id}/cover`, [{ field: 'image', name: 'm.jpg', type: 'image/jpeg', data: await jpeg(1500, 200) }]);
    expect(mc.status, mc.text).to.equal(200);
    const urls = { avatar: avatar.body.profileImageUrl, community: cc.body.imageUrl, group: gc.body.imageUrl, meetup: mc.body.imageUrl };
    await variantsOf(Object.values(urls));
    const info = {
      avatar: await infoOf(urls.avatar),
      community: await infoOf(urls.community),
      group: await infoOf(urls.group),
      meetup: await infoOf(urls.meetup),
    };
    expect(info.community).to.include({ width: 1000, height: 600 });
    expect(info.community.widths).to.deep.equal([320, 640, 1000]);
    expect(info.meetup.widths).to.deep.equal([320, 640, 1280, 1500]);
    expect(info.community.blurhash).to.be.a('string').with.length.greaterThan(5);

    // community list (and its search), with the creator's avatar
    const communities = await viewer.get(`/api/communities?q=${encodeURIComponent(word)}`);
    expect(communities.status, communities.text).to.equal(200);
    const card = communities.body.find((c: any) => c.id === community);
    expect(card.imageInfo).to.deep.equal(info.community);
    expect(card.creator.profileImageInfo).to.deep.equal(info.avatar);
    expect((await viewer.get(`/api/search/communities?q=${encodeURIComponent(word)}`)).body.find((c: any) => c.id === community).imageInfo).to.deep.equal(info.community);

    // group lists
    const groups = await viewer.get(`/api/groups?q=${encodeURIComponent(word)}`);
    expect(groups.status, groups.text).to.equal(200);
    expect(groups.body.find((x: any) => x.id === g.body.id).imageInfo).to.deep.equal(info.group);
    expect((await owner.get('/api/user/groups')).body.find((x: any) => x.id === g.body.id).imageInfo).to.deep.equal(info.group);

    // meetup lists: everyone's, the community's, search
    for (const path of [`/api/meetups?q=${encodeURIComponent(word)}`, `/api/communities/${community}/meetups`, `/api/search/events?q=${encodeURIComponent(word)}`]) {
      const r = await viewer.get(path);
      expect(r.status, `${path}: ${r.text}`).to.equal(200);
      const e = r.body.find((x: any) => x.id === meetup.id);
      expect(e, path).to.exist;
      expect(e.imageInfo, path).to.deep.equal(info.meetup);
      expect(e.organizer.profileImageInfo, path).to.deep.equal(info.avatar);
    }

    // a museum featuring the community's image, and one with an external image: lists, featured, search
    const museums = app.services.get(MuseumsService);
    const own = await museums.createMuseum({ name: `${word} museum`, address: '1 Rue des Vitraux', city: 'Lyon', country: 'France', featuredImage: urls.community } as any, null);
    const ext = await museums.createMuseum({ name: `${word} elsewhere`, address: '2 Rue des Vitraux', city: 'Lyon', country: 'France', featuredImage: 'https://upload.wikimedia.org/x.jpg' } as any, null);
    const list = await app.client().get(`/api/museums?q=${encodeURIComponent(word)}`);
    expect(list.status, list.text).to.equal(200);
    expect(list.body.items.find((m: any) => m.id === own.id).featuredImageInfo).to.deep.equal(info.community);
    expect(list.body.items.find((m: any) => m.id === ext.id).featuredImageInfo).to.equal(null);
    const all = await viewer.get(`/api/search?q=${encodeURIComponent(word)}`);
    expect(all.body.museums.find((m: any) => m.id === own.id).featuredImageInfo).to.deep.equal(info.community);
    // the all-in-one search's short summaries of communities and events carry their covers' info too
    expect(all.body.communities.find((c: any) => c.id === community).imageInfo).to.deep.equal(info.community);
    expect(all.body.communities.find((c: any) => c.id === community).creator.profileImageInfo).to.deep.equal(info.avatar);
    expect(all.body.events.find((e: any) => e.id === meetup.id).imageInfo).to.deep.equal(info.meetup);
    expect((await app.client().get(`/api/search/museums?q=${encodeURIComponent(word)}`)).body.find((m: any) => m.id === own.id).featuredImageInfo).to.deep.equal(info.community);
    expect((await app.client().get(`/api/museums/${own.id}`)).body.featuredImageInfo).to.deep.equal(info.community);

    // avatars beside content: insights (feed and profile), community members
    const post = await owner.post('/api/posts', { type: 'text', content: `Light through the ${word} windows`, tags: ['light'] });
    expect(post.status, post.text).to.equal(201);
    const feed = await viewer.get(`/api/user/${owner.me.id}/posts`);
    expect(feed.status, feed.text).to.equal(200);
    const items = feed.body.items ?? feed.body.posts ?? feed.body;
    expect(items.find((p: any) => p.id === post.body.id).user.profileImageInfo).to.deep.equal(info.avatar);
    const members = await viewer.get(`/api/communities/${community}/members`);
    expect(members.status, members.text).to.equal(200);
    expect(members.body.find((m: any) => m.userId === owner.me.id).user.profileImageInfo).to.deep.equal(info.avatar);
    // a member without a photo: nothing told (no info without the URL it describes)
    const plain = members.body.find((m: any) => m.userId === viewer.me.id).user;
    expect(plain.profileImageUrl ?? null).to.equal(null);
    expect(plain.profileImageInfo).to.equal(null);
  });

  it('a list costs the same statements with one image as with three (one query for the whole list)', async () => {
    const counter = countStatements(app);
    const tag = uniqueName('Rosace').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await makeCommunity(owner, [], { name: `${tag} ${'abc'[i]}` });
      const up = await owner.upload(`/api/communities/${id}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: await jpeg(400 + i * 100, 30 * i) }]);
      expect(up.status, up.text).to.equal(200);
      made.push(up.body.imageUrl);
    }
    await variantsOf(made);
    // the route's statements (the session middleware's depends on its cache, not on the list)
    const measure = async (q: string) => routeStatements(counter, viewer, `/api/communities?q=${encodeURIComponent(q)}`);
    const one = await measure(`${tag} a`);
    const three = await measure(tag);
    expect(one.body).to.have.length(1);
    expect(three.body).to.have.length(3);
    for (const c of three.body) expect(c.imageInfo.widths.length, c.name).to.be.greaterThan(0);
    expect(three.total).to.equal(one.total);
  });
  /** A member with an uploaded avatar, and what core_images says of it once its variants are made. */
  async function withAvatar(c: SignedInClient, g: number) {
    const r = await c.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: await jpeg(300 + g, g) }]);
    expect(r.status, r.text).to.equal(200);
    return r.body.profileImageUrl as string;
  }

  it('member avatars everywhere else: people search, profile, followers and following, blocks and mutes, follow requests, suggestions, museum photo credits', async () => {
    const tag = uniqueName('Lanterne').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const [star, fan, pest, me, shy] = await Promise.all([app.user(), app.user(), app.user(), app.user(), app.user()]);
    // a searchable name
    expect((await star.put('/api/user/profile', { firstName: tag, lastName: 'Star' })).status).to.equal(200);
    const urls = { star: await withAvatar(star, 10), fan: await withAvatar(fan, 70), pest: await withAvatar(pest, 130), shy: await withAvatar(shy, 190) };
    await variantsOf(Object.values(urls));
    const info = { star: await infoOf(urls.star), fan: await infoOf(urls.fan), pest: await infoOf(urls.pest), shy: await infoOf(urls.shy) };
    expect(info.star.widths).to.deep.equal([310]);

    // profile header: by id, by slug, one's own
    const byId = await me.get(`/api/user/${star.me.id}`);
    expect(byId.status, byId.text).to.equal(200);
    expect(byId.body.profileImageInfo).to.deep.equal(info.star);
    expect((await me.get(`/api/user/slug/${byId.body.slug}`)).body.profileImageInfo).to.deep.equal(info.star);
    expect((await star.get('/api/user')).body.profileImageInfo).to.deep.equal(info.star);
    expect((await star.get(`/api/user/${me.me.id}`)).body.profileImageInfo, 'no picture: null').to.equal(null);

    // people search
    const search = await me.get(`/api/search?q=${encodeURIComponent(tag)}`);
    expect(search.status, search.text).to.equal(200);
    expect(search.body.users.find((u: any) => u.id === star.me.id).profileImageInfo).to.deep.equal(info.star);

    // followers and following
    expect((await fan.post(`/api/user/${star.me.id}/follow`)).body.following).to.equal(true);
    expect((await me.post(`/api/user/${fan.me.id}/follow`)).body.following).to.equal(true);
    const followers = await me.get(`/api/user/${star.me.id}/followers`);
    expect(followers.status, followers.text).to.equal(200);
    expect(followers.body.find((u: any) => u.id === fan.me.id).profileImageInfo).to.deep.equal(info.fan);
    const following = await me.get(`/api/user/${fan.me.id}/following`);
    expect(following.body.find((u: any) => u.id === star.me.id).profileImageInfo).to.deep.equal(info.star);
    expect((await star.get(`/api/user/${me.me.id}/following`)).body.find((u: any) => u.id === fan.me.id).profileImageInfo).to.deep.equal(info.fan);

    // blocks, mutes, follow requests (a private profile)
    expect((await me.post(`/api/user/${pest.me.id}/block`)).status).to.equal(200);
    expect((await me.post(`/api/user/${shy.me.id}/mute`, {})).status).to.equal(200);
    const blocks = await me.get('/api/user/blocks');
    expect(blocks.status, blocks.text).to.equal(200);
    expect(blocks.body.items.find((x: any) => x.user.id === pest.me.id).user.profileImageInfo).to.deep.equal(info.pest);
    const mutes = await me.get('/api/user/mutes');
    expect(mutes.body.items.find((x: any) => x.user.id === shy.me.id).user.profileImageInfo).to.deep.equal(info.shy);
    expect((await star.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    expect((await shy.post(`/api/user/${star.me.id}/follow`)).body.requested).to.equal(true);
    const requests = await star.get('/api/follow-requests');
    expect(requests.body.items.find((x: any) => x.user.id === shy.me.id).user.profileImageInfo).to.deep.equal(info.shy);
    expect((await star.put('/api/user/preferences', { profileVisibility: 'public' })).status).to.equal(200);

    // suggestions: active members, people to follow (fan, whom `me` follows, follows star)
    for (let i = 0; i < 3; i++) expect((await star.post('/api/posts', { type: 'text', content: `${tag} lantern ${i}`, tags: [] })).status).to.equal(201);
    const active = await me.get('/api/users/active?limit=50');
    expect(active.status, active.text).to.equal(200);
    expect(active.body.find((u: any) => u.id === star.me.id)?.profileImageInfo, 'star is among the most active').to.deep.equal(info.star);
    const recs = await me.get('/api/recommendations/users?limit=50');
    expect(recs.status, recs.text).to.equal(200);
    expect(recs.body.find((u: any) => u.id === star.me.id)?.profileImageInfo, "star is followed by whom I follow").to.deep.equal(info.star);

    // the Photos tab of a museum: each photo's author (credit)
    const museums = app.services.get(MuseumsService);
    const museum = await museums.createMuseum({ name: `${tag} museum`, address: '3 Rue des Lanternes', city: 'Lyon', country: 'France' } as any, null);
    const photo = await star.upload('/api/posts/photos', [{ field: 'photo', name: 'p.jpg', type: 'image/jpeg', data: await jpeg(600, 20) }]);
    expect(photo.status, photo.text).to.equal(201);
    const post = await star.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: photo.body.id, alt: 'Lanterns' }] });
    expect(post.status, post.text).to.equal(201);
    const gallery = await me.get(`/api/museums/${museum.id}/photos`);
    expect(gallery.status, gallery.text).to.equal(200);
    expect(gallery.body.items.find((x: any) => x.postId === post.body.id).user.profileImageInfo).to.deep.equal(info.star);
  });

  it('museum cards beside insights and in recommendations carry the featured image’s info', async () => {
    const tag = uniqueName('Verriere').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const [author, reader] = await Promise.all([app.user(), app.user()]);
    const url = await withAvatar(author, 90);
    await variantsOf([url]);
    const featured = await infoOf(url);
    const museums = app.services.get(MuseumsService);
    const museum = await museums.createMuseum({ name: `${tag} museum`, address: '4 Rue des Verrières', city: 'Lyon', country: 'France', featuredImage: url } as any, null);
    const plain = await museums.createMuseum({ name: `${tag} annex`, address: '5 Rue des Verrières', city: 'Lyon', country: 'France', featuredImage: 'https://upload.wikimedia.org/y.jpg' } as any, null);
    const post = await author.post('/api/posts', { type: 'text', content: `${tag} glass roof`, museumId: museum.id, tags: [] });
    expect(post.status, post.text).to.equal(201);
    expect(post.body.museum.featuredImageInfo, 'the created insight').to.deep.equal(featured);
    const other = await author.post('/api/posts', { type: 'text', content: `${tag} annex`, museumId: plain.id, tags: [] });
    expect(other.body.museum.featuredImageInfo, 'an external image').to.equal(null);
    const posts = await reader.get(`/api/user/${author.me.id}/posts`);
    const items = posts.body.items ?? posts.body.posts ?? posts.body;
    expect(items.find((p: any) => p.id === post.body.id).museum.featuredImageInfo, 'a profile page of insights').to.deep.equal(featured);
    expect(items.find((p: any) => p.id === other.body.id).museum.featuredImageInfo).to.equal(null);
    expect((await reader.get(`/api/posts/${post.body.id}`)).body.museum.featuredImageInfo, 'one insight').to.deep.equal(featured);
    // trending (its insight made it so) and the recommendations that fall back on it
    for (const path of ['/api/trending/museums?limit=50', '/api/recommendations/museums?limit=50']) {
      const r = await reader.get(path);
      expect(r.status, `${path}: ${r.text}`).to.equal(200);
      expect(r.body.find((m: any) => m.id === museum.id)?.featuredImageInfo, path).to.deep.equal(featured);
      expect(r.body.find((m: any) => m.id === plain.id)?.featuredImageInfo, path).to.equal(null);
    }
  });

  it('member lists cost the same statements with one avatar as with three', async () => {
    const counter = countStatements(app);
    const [one, three, viewerOf, blocksOne, blocksThree, none, blocksNone, plain] = await Promise.all([app.user(), app.user(), app.user(), app.user(), app.user(), app.user(), app.user(), app.user()]);
    // a list whose members have no picture: the baseline (an extra query for the pictures would show)
    expect((await plain.post(`/api/user/${none.me.id}/follow`)).body.following).to.equal(true);
    expect((await blocksNone.post(`/api/user/${plain.me.id}/block`)).status).to.equal(200);
    const fans = await Promise.all([app.user(), app.user(), app.user()]);
    const made: string[] = [];
    for (const [i, f] of fans.entries()) made.push(await withAvatar(f, 40 * i));
    await variantsOf(made);
    expect((await fans[0].post(`/api/user/${one.me.id}/follow`)).body.following).to.equal(true);
    for (const f of fans) expect((await f.post(`/api/user/${three.me.id}/follow`)).body.following).to.equal(true);
    for (const f of fans) expect((await blocksThree.post(`/api/user/${f.me.id}/block`)).status).to.equal(200);
    expect((await blocksOne.post(`/api/user/${fans[0].me.id}/block`)).status).to.equal(200);
    const measure = async (c: SignedInClient, path: string) => routeStatements(counter, c, path);
    const tag = uniqueName('n');
    const f0 = await measure(viewerOf, `/api/user/${none.me.id}/followers`);
    expect(f0.body[0].profileImageInfo).to.equal(null);
    const f1 = await measure(viewerOf, `/api/user/${one.me.id}/followers`);
    const f3 = await measure(viewerOf, `/api/user/${three.me.id}/followers`);
    expect(f1.body).to.have.length(1);
    expect(f3.body).to.have.length(3);
    for (const u of f3.body) expect(u.profileImageInfo.widths.length).to.be.greaterThan(0);
    expect(f3.total).to.equal(f1.total);
    expect(f1.total).to.equal(f0.total);
    const b0 = await measure(blocksNone, '/api/user/blocks');
    const b1 = await measure(blocksOne, '/api/user/blocks');
    const b3 = await measure(blocksThree, '/api/user/blocks');
    expect(b3.body.items).to.have.length(3);
    for (const x of b3.body.items) expect(x.user.profileImageInfo.widths.length).to.be.greaterThan(0);
    expect(b3.total).to.equal(b1.total);
    expect(b1.total).to.equal(b0.total);
  });

  it("a video's poster carries its real size and made widths (posterInfo): a 160 px frame lists no wider variant", async () => {
    const up = await owner.upload('/api/posts/video', [{ field: 'video', name: 'clip.webm', type: 'video/webm', data: makeVideo('nodur') }]);
    expect(up.status, up.text).to.be.oneOf([200, 201]);
    expect(up.body.posterUrl).to.be.a('string');
    await variantsOf([up.body.posterUrl]);
    const poster = await infoOf(up.body.posterUrl);
    expect(poster).to.include({ width: 160, height: 120 });
    const post = await owner.post('/api/posts', { type: 'video', content: 'A short clip of the lanterns', videoUrl: up.body.videoUrl, museumId: null, tags: [] });
    expect(post.status, post.text).to.equal(201);
    expect(post.body.posterInfo).to.deep.equal(poster);
    const feed = await viewer.get(`/api/user/${owner.me.id}/posts`);
    const items = feed.body.items ?? feed.body.posts ?? feed.body;
    const p = items.find((x: any) => x.id === post.body.id);
    expect(p.posterInfo).to.deep.equal(poster);
    expect(p.posterInfo.widths.every((w: number) => w <= p.posterInfo.width)).to.equal(true);
    expect((await viewer.get(`/api/posts/${post.body.id}`)).body.posterInfo).to.deep.equal(poster);
    // a text insight has none
    const text = await owner.post('/api/posts', { type: 'text', content: 'No poster here', tags: [] });
    expect(text.body.posterInfo ?? null).to.equal(null);
  });
  it('messages, the admin and the signed-in member: conversation participants, message senders, admin user lists, manager candidates, moderations, the top bar', async () => {
    const tag = uniqueName('Verriere').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const [writer, manager, plain, admin] = await Promise.all([app.user(), app.user({ role: 'Museum Manager' }), app.user(), app.user({ role: 'Admin' })]);
    expect((await manager.put('/api/user/profile', { firstName: tag, lastName: 'Manager' })).status).to.equal(200);
    const urls = { writer: await withAvatar(writer, 25), manager: await withAvatar(manager, 85) };
    await variantsOf(Object.values(urls));
    const info = { writer: await infoOf(urls.writer), manager: await infoOf(urls.manager) };
    expect(info.writer.widths.length).to.be.greaterThan(0);
    expect(info.writer.blurhash).to.be.a('string');

    // a group conversation: the creator's answer, then each member's list, thread and messages
    const created = await writer.post('/api/conversations', { participantIds: [manager.me.id, plain.me.id], message: { text: `${tag} hello` } });
    expect(created.status, created.text).to.equal(201);
    const byId = (list: any[], id: number) => list.find((u: any) => u.id === id);
    expect(byId(created.body.participants, manager.me.id).profileImageInfo).to.deep.equal(info.manager);
    expect(byId(created.body.participants, plain.me.id).profileImageInfo, 'no picture: null').to.equal(null);
    expect(created.body.lastMessage.sender.profileImageInfo).to.deep.equal(info.writer);
    const convId = created.body.id;
    expect((await plain.post(`/api/conversations/${convId}/messages`, { text: 'hi all' })).status).to.equal(201);

    const list = await manager.get('/api/conversations?folder=requests');
    expect(list.status, list.text).to.equal(200);
    const item = list.body.items.find((c: any) => c.id === convId);
    expect(byId(item.participants, writer.me.id).profileImageInfo).to.deep.equal(info.writer);
    expect(byId(item.participants, plain.me.id).profileImageInfo).to.equal(null);
    expect(item.lastMessage.sender.id).to.equal(plain.me.id);
    expect(item.lastMessage.sender.profileImageInfo).to.equal(null);
    const one = await manager.get(`/api/conversations/${convId}`);
    expect(byId(one.body.participants, writer.me.id).profileImageInfo).to.deep.equal(info.writer);
    const msgs = await manager.get(`/api/conversations/${convId}/messages`);
    expect(msgs.status, msgs.text).to.equal(200);
    expect(msgs.body.items.map((m: any) => [m.sender.id, m.sender.profileImageInfo])).to.deep.equal([
      [plain.me.id, null],
      [writer.me.id, info.writer],
    ]);
    // the people picker (GET /api/search) and a direct conversation's header (GET /api/user/:id)
    const found = await writer.get(`/api/search?q=${encodeURIComponent(tag)}&limit=8`);
    expect(byId(found.body.users, manager.me.id).profileImageInfo).to.deep.equal(info.manager);
    expect((await plain.get(`/api/user/${writer.me.id}`)).body.profileImageInfo).to.deep.equal(info.writer);

    // the admin: users list and search, manager candidates, a role change, moderations
    const search = await admin.get(`/api/admin/users/search?q=${encodeURIComponent(writer.me.username)}&pageSize=10`);
    expect(search.status, search.text).to.equal(200);
    expect(byId(search.body.items, writer.me.id).profileImageInfo).to.deep.equal(info.writer);
    expect(byId((await admin.get(`/api/admin/users/search?q=${encodeURIComponent(plain.me.username)}`)).body.items, plain.me.id).profileImageInfo).to.equal(null);
    const all = await admin.get('/api/admin/users?pageSize=100');
    expect(all.status, all.text).to.equal(200);
    expect(byId(all.body.items, manager.me.id)?.profileImageInfo, 'the newest members are on the first page').to.deep.equal(info.manager);
    const candidates = await admin.get(`/api/admin/museum-managers?q=${encodeURIComponent(tag)}`);
    expect(candidates.status, candidates.text).to.equal(200);
    expect(byId(candidates.body, manager.me.id).profileImageInfo).to.deep.equal(info.manager);
    const role = await admin.post('/api/admin/change-user-role', { userId: writer.me.id, role: 'Ambassador' });
    expect(role.status, role.text).to.equal(200);
    expect(role.body.profileImageInfo).to.deep.equal(info.writer);
    const warned = await admin.post('/api/admin/moderate-user', { userId: writer.me.id, type: 'warning', reason: 'Shouting in the gallery' });
    expect(warned.status, warned.text).to.equal(201);
    expect(warned.body.user.profileImageInfo).to.deep.equal(info.writer);
    const mods = await admin.get(`/api/admin/moderations?userId=${writer.me.id}`);
    expect(mods.status, mods.text).to.equal(200);
    expect(mods.body.items[0].user.profileImageInfo).to.deep.equal(info.writer);
    const lifted = await admin.post(`/api/admin/moderations/${warned.body.id}/lift`, { reason: 'apologised' });
    expect(lifted.status, lifted.text).to.equal(200);
    expect(lifted.body.user.profileImageInfo).to.deep.equal(info.writer);

    // the signed-in member (the top bar's avatar)
    expect((await manager.get('/api/auth/user')).body.profileImageInfo).to.deep.equal(info.manager);
    const mine = await plain.get('/api/auth/user');
    expect(mine.status, mine.text).to.equal(200);
    expect(mine.body.profileImageInfo, 'no picture: null').to.equal(null);
  });

  it('conversations, their messages and the admin user lists cost the same statements with avatars as without', async () => {
    const counter = countStatements(app);
    const tag = uniqueName('m');
    const word = uniqueName('Rosace').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const [bare, pictured, admin] = await Promise.all([app.user(), app.user(), app.user({ role: 'Admin' })]);
    const nobodies = await Promise.all([app.user(), app.user(), app.user()]);
    const faces = await Promise.all([app.user(), app.user(), app.user()]);
    const made: string[] = [];
    for (const [i, f] of faces.entries()) made.push(await withAvatar(f, 30 + 50 * i));
    await variantsOf(made);
    // the same shape twice: a group of three who write once each, without pictures and with
    for (const [viewer, people] of [[bare, nobodies], [pictured, faces]] as const) {
      const c = await people[0].post('/api/conversations', { participantIds: [viewer.me.id, people[1].me.id, people[2].me.id], message: { text: 'first' } });
      expect(c.status, c.text).to.equal(201);
      for (const p of people.slice(1)) expect((await p.post(`/api/conversations/${c.body.id}/messages`, { text: 'me too' })).status).to.equal(201);
      for (const p of people) expect((await p.put('/api/user/profile', { firstName: word, lastName: viewer === bare ? 'Bare' : 'Face' })).status).to.equal(200);
    }
    const measure = async (c: SignedInClient, path: string) => routeStatements(counter, c, path);
    const l0 = await measure(bare, '/api/conversations?folder=requests');
    const l3 = await measure(pictured, '/api/conversations?folder=requests');
    expect(l0.body.items).to.have.length(1);
    expect(l3.body.items).to.have.length(1);
    for (const u of l0.body.items[0].participants) expect(u.profileImageInfo).to.equal(null);
    for (const u of l3.body.items[0].participants) expect(u.profileImageInfo.widths.length).to.be.greaterThan(0);
    expect(l3.total).to.equal(l0.total);
    const m0 = await measure(bare, `/api/conversations/${l0.body.items[0].id}/messages`);
    const m3 = await measure(pictured, `/api/conversations/${l3.body.items[0].id}/messages`);
    expect(m3.body.items).to.have.length(3);
    for (const m of m3.body.items) expect(m.sender.profileImageInfo.widths.length).to.be.greaterThan(0);
    for (const m of m0.body.items) expect(m.sender.profileImageInfo).to.equal(null);
    expect(m3.total).to.equal(m0.total);
    const a0 = await measure(admin, `/api/admin/users/search?q=${encodeURIComponent(`${word} Bare`)}`);
    const a3 = await measure(admin, `/api/admin/users/search?q=${encodeURIComponent(`${word} Face`)}`);
    expect(a0.body.items).to.have.length(3);
    expect(a3.body.items).to.have.length(3);
    for (const u of a0.body.items) expect(u.profileImageInfo).to.equal(null);
    for (const u of a3.body.items) expect(u.profileImageInfo.widths.length).to.be.greaterThan(0);
    expect(a3.total).to.equal(a0.total);
  });

  /** Images uploaded for a message (POST /api/messages/images), `widths` px wide. */
  async function messageImages(c: SignedInClient, widths: number[]) {
    const files = await Promise.all(widths.map(async (w, i) => ({ field: 'files', name: `m${i}.jpg`, type: 'image/jpeg', data: await jpeg(w, 20 + 60 * i) })));
    const r = await c.upload('/api/messages/images', files);
    expect(r.status, r.text).to.equal(201);
    return r.body as Array<{ id: number; url: string; width: number; height: number; imageInfo: unknown }>;
  }

  it("a message's images carry their made widths, size and placeholder: the thread, the list's last message, one conversation, the send answer", async () => {
    const [writer, reader] = await Promise.all([app.user(), app.user()]);
    const images = await messageImages(writer, [500, 900, 1500]);
    // the upload's answer says it too (null while the variants job has not run)
    for (const i of images) expect(i).to.have.property('imageInfo');
    await variantsOf(images.map((i) => i.url));
    const infos = await Promise.all(images.map((i) => infoOf(i.url)));
    expect(infos[0]).to.include({ width: 500, height: 300 });
    expect(infos[2].widths).to.deep.equal([320, 640, 1280, 1500]);
    for (const info of infos) expect(info.blurhash).to.be.a('string').with.length.greaterThan(5);
    const expectInfos = (got: any[], what: string) => {
      expect(got.map((i: any) => i.id), what).to.deep.equal(images.map((i) => i.id));
      expect(got.map((i: any) => i.imageInfo), what).to.deep.equal(infos);
      // the answer's own size is the one core_images recorded (the box reserved before it loads)
      expect(got.map((i: any) => [i.width, i.height]), what).to.deep.equal(infos.map((i) => [i.width, i.height]));
    };

    const created = await writer.post('/api/conversations', { participantIds: [reader.me.id], message: { text: 'From the rose window', imageIds: images.map((i) => i.id) } });
    expect(created.status, created.text).to.equal(201);
    expectInfos(created.body.lastMessage.images, 'the created conversation');
    const convId = created.body.id;
    const list = await reader.get('/api/conversations?folder=requests');
    expect(list.status, list.text).to.equal(200);
    expectInfos(list.body.items.find((c: any) => c.id === convId).lastMessage.images, "the list's last message");
    expectInfos((await reader.get(`/api/conversations/${convId}`)).body.lastMessage.images, 'one conversation');
    const thread = await reader.get(`/api/conversations/${convId}/messages`);
    expect(thread.status, thread.text).to.equal(200);
    expectInfos(thread.body.items[0].images, 'the thread');

    // one message sent with an image whose variants are made: its answer (201 Message) carries the info
    const [late] = await messageImages(writer, [700]);
    await variantsOf([late.url]);
    const lateInfo = await infoOf(late.url);
    const sent = await writer.post(`/api/conversations/${convId}/messages`, { imageIds: [late.id] });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.images.map((i: any) => i.imageInfo)).to.deep.equal([lateInfo]);
    const again = await reader.get(`/api/conversations/${convId}/messages`);
    expect(again.body.items[0].images.map((i: any) => i.imageInfo)).to.deep.equal([lateInfo]);
    // someone outside the conversation still sees nothing of it
    expect((await viewer.get(`/api/conversations/${convId}/messages`)).status).to.equal(404);
  });

  it("conversations and their messages cost the same statements with three images as with none", async () => {
    const counter = countStatements(app);
    const tag = uniqueName('mi');
    const [plainWriter, plainReader, imageWriter, imageReader] = await Promise.all([app.user(), app.user(), app.user(), app.user()]);
    const images = await messageImages(imageWriter, [400, 600, 800]);
    await variantsOf(images.map((i) => i.url));
    // the same shape twice: a direct conversation of two messages, the first with three images or none
    const plain = await plainWriter.post('/api/conversations', { participantIds: [plainReader.me.id], message: { text: 'first' } });
    const pictured = await imageWriter.post('/api/conversations', { participantIds: [imageReader.me.id], message: { text: 'first', imageIds: images.map((i) => i.id) } });
    expect(plain.status, plain.text).to.equal(201);
    expect(pictured.status, pictured.text).to.equal(201);
    expect((await plainWriter.post(`/api/conversations/${plain.body.id}/messages`, { text: 'second' })).status).to.equal(201);
    expect((await imageWriter.post(`/api/conversations/${pictured.body.id}/messages`, { text: 'second' })).status).to.equal(201);
    const measure = async (c: SignedInClient, path: string) => routeStatements(counter, c, path);
    const t0 = await measure(plainReader, `/api/conversations/${plain.body.id}/messages`);
    const t3 = await measure(imageReader, `/api/conversations/${pictured.body.id}/messages`);
    expect(t0.body.items).to.have.length(2);
    expect(t3.body.items).to.have.length(2);
    expect(t0.body.items[1].images).to.deep.equal([]);
    expect(t3.body.items[1].images).to.have.length(3);
    for (const i of t3.body.items[1].images) expect(i.imageInfo.widths.length).to.be.greaterThan(0);
    expect(t3.total).to.equal(t0.total);
    // the list and one conversation: the last message carries the images
    expect((await imageWriter.post(`/api/conversations/${pictured.body.id}/messages`, { imageIds: (await messageImages(imageWriter, [300])).map((i) => i.id) })).status).to.equal(201);
    expect((await plainWriter.post(`/api/conversations/${plain.body.id}/messages`, { text: 'third' })).status).to.equal(201);
    const l0 = await measure(plainReader, '/api/conversations?folder=requests');
    const l3 = await measure(imageReader, '/api/conversations?folder=requests');
    expect(l0.body.items).to.have.length(1);
    expect(l3.body.items).to.have.length(1);
    expect(l3.body.items[0].lastMessage.images).to.have.length(1);
    expect(l3.total).to.equal(l0.total);
    const c0 = await measure(plainReader, `/api/conversations/${plain.body.id}`);
    const c3 = await measure(imageReader, `/api/conversations/${pictured.body.id}`);
    expect(c3.total).to.equal(c0.total);
  });

  it("the signed-in member's own answers carry profileImageInfo: sign-in, sign-up, profile and photo changes, email change", async () => {
    const [pictured, bare] = await Promise.all([app.user(), app.user()]);
    const url = await withAvatar(pictured, 150);
    await variantsOf([url]);
    const info = await infoOf(url);
    expect(info.widths.length).to.be.greaterThan(0);

    // sign-in (the top bar draws from this answer)
    const login = await app.client().post('/api/auth/login', { email: pictured.me.email, password: pictured.me.password });
    expect(login.status, login.text).to.equal(200);
    expect(login.body.profileImageUrl).to.equal(url);
    expect(login.body.profileImageInfo).to.deep.equal(info);
    const plainLogin = await app.client().post('/api/auth/login', { email: bare.me.email, password: bare.me.password });
    expect(plainLogin.status, plainLogin.text).to.equal(200);
    expect(plainLogin.body.profileImageInfo, 'no picture: null').to.equal(null);

    // sign-up: a new account has no picture
    const name = uniqueName('newcomer');
    const reg = await app.client().post('/api/auth/register', { email: `${name}@example.com`, password: 'correct-horse-42', firstName: 'New', lastName: 'Comer', username: name });
    expect(reg.status, reg.text).to.equal(201);
    expect(reg.body.profileImageInfo).to.equal(null);

    // the profile: changed, and unchanged
    const renamed = await pictured.put('/api/user/profile', { firstName: 'Renamed' });
    expect(renamed.status, renamed.text).to.equal(200);
    expect(renamed.body.firstName).to.equal('Renamed');
    expect(renamed.body.profileImageInfo).to.deep.equal(info);
    expect((await pictured.put('/api/user/profile', { bio: 'Stained glass' })).body.profileImageInfo, 'another field').to.deep.equal(info);
    expect((await bare.put('/api/user/profile', { lastName: 'Plain' })).body.profileImageInfo).to.equal(null);

    // the email change
    const moved = await pictured.put('/api/user/email', { email: `${uniqueName('moved')}@example.com`, currentPassword: pictured.me.password });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.profileImageInfo).to.deep.equal(info);

    // a new photo: its info as known when answered (null until its variants are made), then the new one's
    const next = await pictured.upload('/api/user/profile-image', [{ field: 'image', name: 'me2.jpg', type: 'image/jpeg', data: await jpeg(360, 220) }]);
    expect(next.status, next.text).to.equal(200);
    expect(next.body.profileImageUrl).to.not.equal(url);
    expect(next.body).to.have.property('profileImageInfo');
    await variantsOf([next.body.profileImageUrl]);
    const nextInfo = await infoOf(next.body.profileImageUrl);
    if (next.body.profileImageInfo !== null) expect(next.body.profileImageInfo).to.deep.equal(nextInfo);
    expect((await pictured.put('/api/user/profile', { lastName: 'Again' })).body.profileImageInfo).to.deep.equal(nextInfo);
  });
});
