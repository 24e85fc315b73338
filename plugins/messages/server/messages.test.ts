import { expect } from 'chai';
import sharp from 'sharp';
import { startTestApp, waitFor, setDeletionPending, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { openSse } from '../../../core/testing/sse.ts';
import { gpsJpeg, pngBytes } from '../../events/server/test-helpers.ts';

const FOLLOWERS_ONLY = 'This member only receives messages from people they follow.';

describe('messages: direct and group conversations', function () {
  this.timeout(60_000);
  let app: TestApp;
  const users = (n: number) => Promise.all(Array.from({ length: n }, () => app.user()));
  const follow = async (who: SignedInClient, whom: SignedInClient) => expect((await who.post(`/api/user/${whom.me.id}/follow`)).status).to.be.oneOf([200, 201]);
  const start = (from: SignedInClient, to: SignedInClient[], text = 'Hello there') => from.post('/api/conversations', { participantIds: to.map((u) => u.me.id), message: { text } });
  const inbox = async (u: SignedInClient, folder = 'inbox') => (await u.get(`/api/conversations?folder=${folder}`)).body.items as any[];
  /** carl's group conversation with ann and bob, who follow him (it is in their inboxes), started with 'start' */
  const groupOfThree = async () => {
    const [carl, ann, bob] = await users(3);
    await follow(ann, carl);
    await follow(bob, carl);
    const id = (await start(carl, [ann, bob], 'start')).body.id as number;
    return { carl, ann, bob, id };
  };

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  it('allowMessages on: anyone may write; the first message from someone not followed lands in Requests until the recipient replies', async () => {
    const [ann, bob] = await users(2);
    const r = await start(ann, [bob]);
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ kind: 'direct', status: 'active', isCreator: true });
    expect(r.body.participants.map((p: any) => p.id)).to.deep.equal([bob.me.id]);
    expect(r.body.lastMessage.text).to.equal('Hello there');
    const id = r.body.id;
    expect((await inbox(bob)).map((c) => c.id)).to.not.include(id);
    const req = await inbox(bob, 'requests');
    expect(req.map((c) => c.id)).to.deep.equal([id]);
    expect(req[0]).to.include({ status: 'request', unreadCount: 1 });
    expect((await bob.get('/api/conversations/unread-count')).body).to.deep.equal({ count: 0, requests: 1 });
    // bob replies: the conversation moves to his inbox
    const reply = await bob.post(`/api/conversations/${id}/messages`, { text: 'Hi Ann' });
    expect(reply.status, reply.text).to.equal(201);
    expect(reply.body).to.include({ text: 'Hi Ann', mine: true, deleted: false });
    expect((await inbox(bob)).map((c) => c.id)).to.include(id);
    expect(await inbox(bob, 'requests')).to.deep.equal([]);
    // writing again to bob reuses the direct conversation
    const again = await start(ann, [bob], 'Second');
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(id);
    const msgs = await ann.get(`/api/conversations/${id}/messages`);
    expect(msgs.body.items.map((m: any) => m.text)).to.deep.equal(['Second', 'Hi Ann', 'Hello there']);
  });

  it('allowMessages off: only members the recipient follows may write (their message goes straight to the inbox)', async () => {
    const [ann, bob, carl] = await users(3);
    expect((await bob.put('/api/user/preferences', { allowMessages: false })).status).to.equal(200);
    const refused = await start(ann, [bob]);
    expect(refused.status).to.equal(403);
    expect(refused.body.message).to.equal(FOLLOWERS_ONLY);
    expect((await ann.get(`/api/conversations/with/${bob.me.id}`)).body).to.deep.equal({ canMessage: false, reason: 'followers_only', conversationId: null });
    // ann following bob changes nothing; bob following ann does
    await follow(ann, bob);
    expect((await start(ann, [bob])).status).to.equal(403);
    await follow(bob, ann);
    const ok = await start(ann, [bob]);
    expect(ok.status, ok.text).to.equal(201);
    expect((await inbox(bob)).map((c) => c.id)).to.include(ok.body.id);
    expect((await ann.get(`/api/conversations/with/${bob.me.id}`)).body).to.deep.equal({ canMessage: true, reason: null, conversationId: ok.body.id });
    // a group including bob is refused for a member bob does not follow
    expect((await start(carl, [ann, bob])).status).to.equal(403);
    // unknown member, yourself
    expect((await ann.post('/api/conversations', { participantIds: [2147483000], message: { text: 'x' } })).status).to.equal(404);
    expect((await ann.post('/api/conversations', { participantIds: [ann.me.id], message: { text: 'x' } })).status).to.equal(400);
  });

  it('a block either way forbids messaging: starting a conversation and writing in an existing one', async () => {
    const [ann, bob] = await users(2);
    const convo = await start(ann, [bob]);
    expect(convo.status, convo.text).to.equal(201);
    expect((await bob.post(`/api/user/${ann.me.id}/block`)).status).to.be.oneOf([200, 201, 204]);
    for (const [from, to] of [[ann, bob], [bob, ann]] as const) {
      const r = await start(from, [to]);
      expect(r.status, r.text).to.equal(403);
      expect(r.body.message).to.equal('You cannot message this member.');
    }
    const write = await ann.post(`/api/conversations/${convo.body.id}/messages`, { text: 'still there?' });
    expect(write.status, write.text).to.equal(403);
    expect(write.body.message).to.equal('You cannot message this member.');
    // unblocking restores it
    expect((await bob.del(`/api/user/${ann.me.id}/block`)).status).to.be.oneOf([200, 204]);
    expect((await ann.post(`/api/conversations/${convo.body.id}/messages`, { text: 'hello again' })).status).to.equal(201);
  });

  it('accepting a request moves it to the inbox; declining deletes it', async () => {
    const [ann, bob, carl] = await users(3);
    const a = (await start(ann, [bob])).body.id;
    const c = (await start(carl, [bob])).body.id;
    const acc = await bob.post(`/api/conversations/${a}/accept`);
    expect(acc.status, acc.text).to.equal(200);
    expect(acc.body.status).to.equal('active');
    expect((await bob.post(`/api/conversations/${a}/accept`)).status).to.equal(409);
    expect((await bob.post(`/api/conversations/${c}/decline`)).status).to.equal(200);
    expect((await carl.get(`/api/conversations/${c}`)).status).to.equal(404);
    expect(await app.knex('messages_messages').where({ conversation_id: c }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    expect((await inbox(bob, 'requests')).length).to.equal(0);
    // carl may write again: a new request
    const c2 = await start(carl, [bob]);
    expect(c2.status).to.equal(201);
    expect(c2.body.id).to.not.equal(c);
  });

  it('group conversations: up to 10 members, the creator adds people, members leave, outsiders see nothing', async () => {
    const people = await users(11);
    const [creator, ...rest] = people;
    const tooMany = await start(creator, rest);
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.message).to.equal('A group conversation has at most 10 members');
    const g = await start(creator, rest.slice(0, 3), 'Museum trip?');
    expect(g.status, g.text).to.equal(201);
    expect(g.body.kind).to.equal('group');
    const id = g.body.id;
    const [m1, m2, m3] = rest;
    const outsider = rest[9];
    // outsiders: 404 everywhere
    expect((await outsider.get(`/api/conversations/${id}`)).status).to.equal(404);
    expect((await outsider.get(`/api/conversations/${id}/messages`)).status).to.equal(404);
    expect((await outsider.post(`/api/conversations/${id}/messages`, { text: 'sneaky' })).status).to.equal(404);
    expect((await outsider.post(`/api/conversations/${id}/read`, {})).status).to.equal(404);
    // only the creator adds
    expect((await m1.post(`/api/conversations/${id}/participants`, { userIds: [rest[4].me.id] })).status).to.equal(403);
    const added = await creator.post(`/api/conversations/${id}/participants`, { userIds: rest.slice(3, 9).map((u) => u.me.id) });
    expect(added.status, added.text).to.equal(200);
    expect(added.body.participants).to.have.length(9);
    expect((await creator.post(`/api/conversations/${id}/participants`, { userIds: [outsider.me.id] })).status).to.equal(400);
    expect((await rest[5].get(`/api/conversations/${id}/messages`)).status).to.equal(200);
    // leaving: no more reading or writing; the others no longer list them
    expect((await m2.post(`/api/conversations/${id}/leave`)).status).to.equal(200);
    expect((await m2.get(`/api/conversations/${id}/messages`)).status).to.equal(404);
    expect((await m2.post(`/api/conversations/${id}/messages`, { text: 'back?' })).status).to.equal(404);
    const seen = await m3.get(`/api/conversations/${id}`);
    expect(seen.body.participants.map((p: any) => p.id)).to.not.include(m2.me.id);
    // now there is room again for one
    expect((await creator.post(`/api/conversations/${id}/participants`, { userIds: [outsider.me.id] })).status).to.equal(200);
    // direct conversations take no additions
    const d = (await start(m1, [m3])).body.id;
    expect((await m1.post(`/api/conversations/${d}/participants`, { userIds: [creator.me.id] })).status).to.equal(400);
  });

  it('deleting: only your own messages, shown as deleted; others 403; outsiders 404', async () => {
    const [ann, bob, eve] = await users(3);
    const id = (await start(ann, [bob], 'oops')).body.id;
    const mine = (await ann.get(`/api/conversations/${id}/messages`)).body.items[0];
    const hers = await bob.post(`/api/conversations/${id}/messages`, { text: 'bob here' });
    expect((await ann.del(`/api/messages/${hers.body.id}`)).status).to.equal(403);
    expect((await eve.del(`/api/messages/${mine.id}`)).status).to.equal(404);
    expect((await ann.del(`/api/messages/${mine.id}`)).status).to.equal(200);
    const list = (await bob.get(`/api/conversations/${id}/messages`)).body.items;
    const gone = list.find((m: any) => m.id === mine.id);
    expect(gone).to.include({ deleted: true, text: '' });
    expect((await ann.del('/api/messages/999999999')).status).to.equal(404);
  });

  it('validates text: empty, too long, unknown fields', async () => {
    const [ann, bob] = await users(2);
    const id = (await start(ann, [bob])).body.id;
    const empty = await ann.post(`/api/conversations/${id}/messages`, { text: '   ' });
    expect(empty.status).to.equal(400);
    expect(empty.body.message).to.equal('Write a message or add an image');
    expect((await ann.post(`/api/conversations/${id}/messages`, { text: 'x'.repeat(2001) })).status).to.equal(400);
    expect((await ann.post(`/api/conversations/${id}/messages`, { text: 'x'.repeat(2000) })).status).to.equal(201);
    expect((await ann.post(`/api/conversations/${id}/messages`, { text: 'x', senderId: bob.me.id })).status).to.equal(400);
    expect((await ann.get('/api/conversations?cursor=garbage')).status).to.equal(200);
    expect((await ann.get(`/api/conversations/${id}/messages?cursor=abc`)).status).to.equal(400);
  });

  it('unread counts are exact under concurrent sends, and reading up to a message leaves the rest unread', async () => {
    const [ann, bob, carl] = await users(3);
    await follow(carl, ann);
    await follow(carl, bob);
    const id = (await start(ann, [bob, carl], 'start')).body.id;
    await bob.post(`/api/conversations/${id}/messages`, { text: 'joined' }); // bob accepts by replying
    await carl.post(`/api/conversations/${id}/read`, {});
    const sends = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? ann : bob).post(`/api/conversations/${id}/messages`, { text: `m${i}` })),
    );
    expect(sends.every((s) => s.status === 201)).to.equal(true);
    expect((await carl.get('/api/conversations/unread-count')).body.count).to.equal(30);
    const ids = sends.map((s) => s.body.id).sort((a, b) => a - b);
    const r = await carl.post(`/api/conversations/${id}/read`, { messageId: ids[9] });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ conversationUnreadCount: 20, count: 20 });
    // reading never goes backwards
    await carl.post(`/api/conversations/${id}/read`, { messageId: ids[0] });
    expect((await carl.get('/api/conversations/unread-count')).body.count).to.equal(20);
    expect((await carl.post(`/api/conversations/${id}/read`, { messageId: 999999999 })).status).to.equal(404);
    await carl.post(`/api/conversations/${id}/read`, {});
    expect((await carl.get('/api/conversations/unread-count')).body.count).to.equal(0);
    // ann's own messages are never unread for her, and writing reads what came before
    const annLast = Math.max(...sends.filter((_, i) => i % 2).map((s) => s.body.id));
    const bobAfter = sends.filter((s, i) => i % 2 === 0 && s.body.id > annLast).length;
    expect((await ann.get(`/api/conversations/${id}`)).body.unreadCount).to.equal(bobAfter);
  });

  it('a new message notifies the recipient (unless muted) and arrives on their stream', async () => {
    const [ann, bob] = await users(2);
    await follow(bob, ann);
    const id = (await start(ann, [bob], 'first')).body.id;
    const notes = async () => (await bob.get('/api/notifications')).body.items.filter((n: any) => n.type === 'message');
    await waitFor(async () => (await notes()).length === 1);
    expect((await notes())[0]).to.include({ link: `/messages/${id}` });
    const s = await openSse(bob);
    try {
      const sent = await ann.post(`/api/conversations/${id}/messages`, { text: 'live?' });
      const e = await s.next((x) => x.event === 'message.created' && x.data.messageId === sent.body.id);
      expect(e.data).to.deep.equal({ conversationId: id, messageId: sent.body.id, senderId: ann.me.id });
      await s.next((x) => x.event === 'notification.created');
      const muted = await bob.post(`/api/conversations/${id}/mute`, { muted: true });
      expect(muted.body.muted).to.equal(true);
      const before = (await notes()).length;
      const quiet = await ann.post(`/api/conversations/${id}/messages`, { text: 'muted now' });
      await s.next((x) => x.event === 'message.created' && x.data.messageId === quiet.body.id);
      expect((await notes()).length).to.equal(before);
      await bob.post(`/api/conversations/${id}/read`, {});
      await s.next((x) => x.event === 'conversation.read');
    } finally {
      s.close();
    }
  });

  it('images: re-encoded without metadata, at most 4, only your own uploads can be sent', async () => {
    const [ann, bob] = await users(2);
    const id = (await start(ann, [bob])).body.id;
    const file = (data: Buffer, name = 'a.png', type = 'image/png') => ({ field: 'files', name, type, data });
    const up = await ann.upload('/api/messages/images', [file(await gpsJpeg(), 'trip.jpg', 'image/jpeg'), file(await pngBytes(40, 30))]);
    expect(up.status, up.text).to.equal(201);
    expect(up.body).to.have.length(2);
    const stored = Buffer.from(await (await app.client().raw('GET', up.body[0].url)).arrayBuffer());
    expect((await sharp(stored).metadata()).exif).to.equal(undefined);
    expect(stored.includes(Buffer.from('GPS'))).to.equal(false);
    const five = await ann.upload('/api/messages/images', Array.from({ length: 5 }, () => file(Buffer.from('x'))));
    expect(five.status).to.equal(413);
    const notImage = await ann.upload('/api/messages/images', [file(Buffer.from('<html></html>'), 'x.png')]);
    expect(notImage.status).to.equal(400);
    // bob cannot send ann's uploads
    expect((await bob.post(`/api/conversations/${id}/messages`, { imageIds: [up.body[0].id] })).status).to.equal(400);
    const sent = await ann.post(`/api/conversations/${id}/messages`, { imageIds: up.body.map((i: any) => i.id) });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.images.map((i: any) => i.id)).to.deep.equal(up.body.map((i: any) => i.id));
    // once sent, not again
    expect((await ann.post(`/api/conversations/${id}/messages`, { imageIds: [up.body[0].id] })).status).to.equal(400);
    expect((await ann.post(`/api/conversations/${id}/messages`, { imageIds: [1, 2, 3, 4, 5] })).status).to.equal(400);
    // deleting the message removes its files
    expect((await ann.del(`/api/messages/${sent.body.id}`)).status).to.equal(200);
    expect((await app.client().raw('GET', up.body[0].url)).status).to.equal(404);
  });

  it('lists are cursor-paged', async () => {
    const [ann, ...others] = await users(4);
    for (const o of others) expect((await start(ann, [o])).status).to.equal(201);
    const p1 = await ann.get('/api/conversations?limit=2');
    expect(p1.body.items).to.have.length(2);
    expect(p1.body.nextCursor).to.be.a('string');
    const p2 = await ann.get(`/api/conversations?limit=2&cursor=${encodeURIComponent(p1.body.nextCursor)}`);
    expect(p2.body.items).to.have.length(1);
    expect(p2.body.nextCursor).to.equal(null);
    const all = [...p1.body.items, ...p2.body.items].map((c: any) => c.participants[0].id);
    expect(all).to.deep.equal(others.map((o) => o.me.id).reverse());
    const id = p1.body.items[0].id;
    for (let i = 0; i < 4; i++) await ann.post(`/api/conversations/${id}/messages`, { text: `n${i}` });
    const m1 = await ann.get(`/api/conversations/${id}/messages?limit=3`);
    const m2 = await ann.get(`/api/conversations/${id}/messages?limit=3&cursor=${m1.body.nextCursor}`);
    expect([...m1.body.items, ...m2.body.items].map((m: any) => m.text)).to.deep.equal(['n3', 'n2', 'n1', 'n0', 'Hello there']);
    expect(m2.body.nextCursor).to.equal(null);
  });

  it('a content restriction (admin moderation) stops sending, starting and uploading; reading goes on', async () => {
    const [ann, bob] = await users(2);
    const admin = await app.user({ role: 'Admin' });
    const id = (await start(ann, [bob])).body.id;
    const mod = await admin.post('/api/admin/moderate-user', { userId: ann.me.id, type: 'content_restriction', reason: 'Spam messages' });
    expect(mod.status, mod.text).to.be.oneOf([200, 201]);
    const sent = await ann.post(`/api/conversations/${id}/messages`, { text: 'more spam' });
    expect(sent.status).to.equal(403);
    expect(sent.body.message).to.equal('Your account is restricted from sending messages');
    expect((await start(ann, [bob])).status).to.equal(403);
    expect((await ann.upload('/api/messages/images', [{ field: 'files', name: 'a.png', type: 'image/png', data: await pngBytes(10, 10) }])).status).to.equal(403);
    expect((await ann.get(`/api/conversations/${id}/messages`)).status).to.equal(200);
  });

  it('a deleted account takes its messages and its empty conversations with it', async () => {
    const [ann, bob] = await users(2);
    const id = (await start(ann, [bob])).body.id;
    await bob.post(`/api/conversations/${id}/messages`, { text: 'bye' });
    const del = await bob.del('/api/user/account', { password: bob.me.password });
    expect(del.status, del.text).to.be.oneOf([200, 204]);
    const msgs = (await ann.get(`/api/conversations/${id}/messages`)).body.items;
    expect(msgs.map((m: any) => m.text)).to.deep.equal(['Hello there']);
  });

  it('a member whose deletion is pending is absent from conversations until they sign in again (their messages, the last message, counts, participants)', async () => {
    const { carl, ann, bob, id } = await groupOfThree();
    expect((await bob.post(`/api/conversations/${id}/messages`, { text: 'from bob' })).status).to.equal(201);
    await setDeletionPending(app, bob.me.id);
    const msgs = (await ann.get(`/api/conversations/${id}/messages`)).body.items.map((m: any) => m.text);
    expect(msgs).to.deep.equal(['start']);
    const conv = (await ann.get(`/api/conversations/${id}`)).body;
    expect(conv.lastMessage.text).to.equal('start');
    expect(conv.unreadCount).to.equal(1);
    expect(conv.participants.map((p: any) => p.id)).to.deep.equal([carl.me.id]);
    expect((await ann.get('/api/conversations/unread-count')).body.count).to.equal(1);
    // signing in again cancels the deletion: everything is back
    expect((await app.client().post('/api/auth/login', { email: bob.me.email, password: bob.me.password })).status).to.equal(200);
    expect((await ann.get(`/api/conversations/${id}/messages`)).body.items.map((m: any) => m.text)).to.deep.equal(['from bob', 'start']);
    const back = (await ann.get(`/api/conversations/${id}`)).body;
    expect(back.lastMessage.text).to.equal('from bob');
    expect(back.unreadCount).to.equal(2);
    expect(back.participants.map((p: any) => p.id)).to.have.members([carl.me.id, bob.me.id]);
  });

  describe('blocks (accounts rule: no block either way)', () => {
    const block = async (who: SignedInClient, whom: SignedInClient) => expect((await who.post(`/api/user/${whom.me.id}/block`)).status).to.be.oneOf([200, 201, 204]);
    const unblock = async (who: SignedInClient, whom: SignedInClient) => expect((await who.del(`/api/user/${whom.me.id}/block`)).status).to.be.oneOf([200, 204]);
    const texts = async (u: SignedInClient, id: number, q = '') => {
      const r = await u.get(`/api/conversations/${id}/messages${q}`);
      expect(r.status, r.text).to.equal(200);
      return r.body as { items: any[]; nextCursor: string | null };
    };

    it('hides a direct conversation from both sides (list, paging, reading, counts) and unblocking brings it back with its history', async () => {
      const [ann, bob, carl, dave] = await users(4);
      await follow(ann, carl);
      await follow(bob, ann);
      const older = (await start(carl, [ann], 'from carl')).body.id; // ann's older conversation (ann follows carl: inbox)
      const id = (await start(ann, [bob], 'hi bob')).body.id; // bob follows ann: straight to his inbox
      expect((await bob.post(`/api/conversations/${id}/messages`, { text: 'hi ann' })).status).to.equal(201);
      expect((await ann.post(`/api/conversations/${id}/messages`, { text: 'unread for bob' })).status).to.equal(201);
      const request = (await start(dave, [bob], 'a request')).body.id; // bob does not follow dave: Requests
      expect((await bob.get('/api/conversations/unread-count')).body).to.deep.equal({ count: 1, requests: 1 });
      expect((await ann.get('/api/conversations?limit=1')).body.items.map((c: any) => c.id)).to.deep.equal([id]);

      await block(bob, ann);
      await block(bob, dave);
      for (const [viewer, other] of [[ann, bob], [bob, ann]] as const) {
        expect((await inbox(viewer)).map((c) => c.id)).to.not.include(id);
        const one = await viewer.get(`/api/conversations/${id}`);
        expect(one.status).to.equal(404);
        expect(one.body.message).to.equal('Conversation not found');
        const msgs = await viewer.get(`/api/conversations/${id}/messages`);
        expect(msgs.status).to.equal(404);
        expect(msgs.body.message).to.equal('Conversation not found');
        expect((await viewer.post(`/api/conversations/${id}/read`, {})).status).to.equal(404);
        expect((await viewer.post(`/api/conversations/${id}/mute`, { muted: true })).status).to.equal(404);
        expect((await viewer.get(`/api/conversations/with/${other.me.id}`)).body).to.deep.equal({ canMessage: false, reason: 'blocked', conversationId: null });
      }
      // the hidden conversation is left out before the limit: ann's first page holds the older one, and it is the last
      const page = (await ann.get('/api/conversations?limit=1')).body;
      expect(page.items.map((c: any) => c.id)).to.deep.equal([older]);
      expect(page.nextCursor).to.equal(null);
      // bob's counts: neither the unread message nor dave's request (blocked) count
      expect((await bob.get('/api/conversations/unread-count')).body).to.deep.equal({ count: 0, requests: 0 });
      expect(await inbox(bob, 'requests')).to.deep.equal([]);
      expect((await dave.get(`/api/conversations/${request}`)).status).to.equal(404);

      await unblock(bob, ann);
      await unblock(bob, dave);
      expect((await inbox(bob)).map((c) => c.id)).to.include(id);
      expect((await inbox(bob, 'requests')).map((c) => c.id)).to.deep.equal([request]);
      expect((await bob.get('/api/conversations/unread-count')).body).to.deep.equal({ count: 1, requests: 1 });
      expect((await texts(bob, id)).items.map((m) => m.text)).to.deep.equal(['unread for bob', 'hi ann', 'hi bob']);
      expect((await ann.get(`/api/conversations/${id}`)).body.lastMessage.text).to.equal('unread for bob');
      expect((await ann.get(`/api/conversations/with/${bob.me.id}`)).body).to.deep.equal({ canMessage: true, reason: null, conversationId: id });
    });

    it("in a group, a blocked member's messages (either way) are left out of the messages, the last message and the unread counts; the member stays listed", async () => {
      const { carl, ann, bob, id } = await groupOfThree();
      await block(ann, bob);
      const sent: Record<string, number> = {};
      for (const [who, text] of [[ann, 'from ann'], [bob, 'from bob'], [carl, 'from carl'], [bob, 'bob last']] as const) {
        const r = await who.post(`/api/conversations/${id}/messages`, { text });
        expect(r.status, r.text).to.equal(201);
        sent[text] = r.body.id;
      }
      // ann (the blocker): no message of bob's, paged with a correct cursor
      const p1 = await texts(ann, id, '?limit=2');
      expect(p1.items.map((m) => m.text)).to.deep.equal(['from carl', 'from ann']);
      expect(p1.nextCursor).to.equal(String(sent['from ann']));
      const p2 = await texts(ann, id, `?limit=2&cursor=${p1.nextCursor}`);
      expect(p2.items.map((m) => m.text)).to.deep.equal(['start']);
      expect(p2.nextCursor).to.equal(null);
      const conv = (await ann.get(`/api/conversations/${id}`)).body;
      expect(conv.lastMessage.text).to.equal('from carl');
      expect(conv.unreadCount).to.equal(1);
      expect(conv.participants.map((p: any) => p.id)).to.have.members([carl.me.id, bob.me.id]);
      expect((await inbox(ann)).find((c) => c.id === id)).to.deep.include({ unreadCount: 1 });
      expect((await inbox(ann)).find((c) => c.id === id).lastMessage.text).to.equal('from carl');
      expect((await ann.get('/api/conversations/unread-count')).body.count).to.equal(1);
      // a message of bob's cannot be read up to
      expect((await ann.post(`/api/conversations/${id}/read`, { messageId: sent['bob last'] })).status).to.equal(404);
      // bob (the blocked one): no message of ann's
      expect((await texts(bob, id)).items.map((m) => m.text)).to.deep.equal(['bob last', 'from carl', 'from bob', 'start']);
      expect((await ann.post(`/api/conversations/${id}/messages`, { text: 'ann again' })).status).to.equal(201);
      expect((await bob.get(`/api/conversations/${id}`)).body).to.deep.include({ unreadCount: 0 });
      expect((await bob.get(`/api/conversations/${id}`)).body.lastMessage.text).to.equal('bob last');
      expect((await bob.get('/api/conversations/unread-count')).body.count).to.equal(0);
      // carl sees everything
      expect((await texts(carl, id)).items).to.have.length(6);
      // unblocking: the whole history again
      await unblock(ann, bob);
      expect((await texts(ann, id)).items.map((m) => m.text)).to.deep.equal(['ann again', 'bob last', 'from carl', 'from bob', 'from ann', 'start']);
      expect((await bob.get(`/api/conversations/${id}`)).body.lastMessage.text).to.equal('ann again');
    });

    it("a blocked member's message does not move a group up the list nor its lastMessageAt; pages stay whole", async () => {
      const [ann, bob, carl, dave] = await users(4);
      await follow(ann, carl);
      await follow(bob, carl);
      await follow(ann, dave);
      const group = (await start(carl, [ann, bob], 'group start')).body.id;
      const direct = (await start(dave, [ann], 'from dave')).body.id; // newer than the group's start
      await block(ann, bob);
      const before = (await ann.get(`/api/conversations/${group}`)).body.lastMessageAt;
      expect((await bob.post(`/api/conversations/${group}/messages`, { text: 'bob, later' })).status).to.equal(201);
      const order = (await inbox(ann)).map((c) => c.id);
      expect(order.indexOf(direct), 'dave\'s conversation stays above the group').to.be.lessThan(order.indexOf(group));
      expect((await ann.get(`/api/conversations/${group}`)).body.lastMessageAt).to.equal(before);
      // one conversation a page: each comes once, in the same order
      const paged: number[] = [];
      let cursor: string | null = null;
      do {
        const page: any = (await ann.get(`/api/conversations?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body;
        paged.push(...page.items.map((c: any) => c.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged).to.deep.equal(order);
      // for bob (and carl), the group is the newest
      expect((await inbox(bob))[0].id).to.equal(group);
      await unblock(ann, bob);
      expect((await inbox(ann))[0].id).to.equal(group);
    });

    it('message.created is not published to a member blocked either way with the sender', async () => {
      const { carl, ann, bob, id } = await groupOfThree();
      await block(bob, ann);
      const [sa, sb, sc] = await Promise.all([openSse(ann), openSse(bob), openSse(carl)]);
      try {
        const fromBob = (await bob.post(`/api/conversations/${id}/messages`, { text: 'from bob' })).body.id;
        const fromAnn = (await ann.post(`/api/conversations/${id}/messages`, { text: 'from ann' })).body.id;
        const fromCarl = (await carl.post(`/api/conversations/${id}/messages`, { text: 'from carl' })).body.id;
        const created = (s: typeof sa, messageId: number) => s.next((x) => x.event === 'message.created' && x.data.messageId === messageId);
        // events of one stream come in order: once carl's message arrived, an earlier one would have too
        await Promise.all([created(sa, fromCarl), created(sb, fromCarl), created(sc, fromBob), created(sc, fromAnn), created(sc, fromCarl)]);
        await Promise.all([created(sa, fromAnn), created(sb, fromBob)]); // their own reach them
        const ids = (s: typeof sa) => s.events.filter((x) => x.event === 'message.created').map((x) => x.data.messageId);
        expect(ids(sa)).to.not.include(fromBob);
        expect(ids(sb)).to.not.include(fromAnn);
      } finally {
        for (const s of [sa, sb, sc]) s.close();
      }
    });

    it('read receipts and deletions do not cross a block; reading to the end leaves a hidden member\'s later messages unread for when they show again', async () => {
      const { carl, ann, bob, id } = await groupOfThree();
      await block(ann, bob);
      const [sa, sb, sc] = await Promise.all([openSse(ann), openSse(bob), openSse(carl)]);
      try {
        const fromAnn = (await ann.post(`/api/conversations/${id}/messages`, { text: 'ann, to be deleted' })).body.id;
        expect((await ann.del(`/api/messages/${fromAnn}`)).status).to.be.oneOf([200, 204]);
        const fromCarl = (await carl.post(`/api/conversations/${id}/messages`, { text: 'from carl' })).body.id;
        const fromBob = (await bob.post(`/api/conversations/${id}/messages`, { text: 'bob after carl' })).body.id;
        // ann reads to the end: to the last message she may see (carl's), not past it to bob's
        expect((await ann.post(`/api/conversations/${id}/read`, {})).status).to.equal(200);
        // carl reads, so that every stream has a later event to wait for
        expect((await carl.post(`/api/conversations/${id}/read`, {})).status).to.equal(200);
        const read = (s: typeof sa, userId: number) => s.next((x) => x.event === 'conversation.read' && x.data.userId === userId);
        await Promise.all([read(sa, carl.me.id), read(sb, carl.me.id), read(sc, ann.me.id)]);
        const events = (s: typeof sa, type: string) => s.events.filter((x) => x.event === type);
        expect(events(sb, 'conversation.read').map((x) => x.data.userId), 'bob hears no read receipt of ann').to.not.include(ann.me.id);
        expect(events(sb, 'message.deleted').map((x) => x.data.messageId), 'nor of her deleted message').to.not.include(fromAnn);
        expect(events(sc, 'message.deleted').map((x) => x.data.messageId)).to.include(fromAnn);
        expect(fromBob).to.be.greaterThan(fromCarl);
      } finally {
        for (const s of [sa, sb, sc]) s.close();
      }
      // unblocked: bob's message, later than what ann could see, is unread for her
      await unblock(ann, bob);
      expect((await ann.get(`/api/conversations/${id}`)).body.unreadCount).to.equal(1);
    });
  });
});
