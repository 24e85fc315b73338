/**
 * Test fixture (issue 24): a member who used every feature, a friend they talk with, and a third
 * member with private content of their own. Used by the archive and the deletion tests.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'chai';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';
import { uniqueName } from '../../../core/testing/index.ts';
import { uploadVideo, createMuseum } from '../../insights/server/test-helpers.ts';

export async function png(width: number, height: number, r = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 40 } } }).png().toBuffer();
}

function ok<T extends { status: number; text: string }>(r: T, what: string, statuses = [200, 201]): T {
  expect(statuses, `${what}: ${r.status} ${r.text}`).to.include(r.status);
  return r;
}

function futureDate(days: number): string {
  return new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
}

export interface ActiveMember {
  me: SignedInClient;
  friend: SignedInClient;
  third: SignedInClient;
  /** /uploads URLs of every file `me` uploaded */
  uploads: string[];
  museumId: number;
  postIds: number[];
  communityId: number;
  meetupId: number;
  conversationId: number;
  /** texts only `me` wrote (each must appear in the archive, and must be gone after deletion) */
  myTexts: string[];
  /** the friend's insight, my comment on it that the friend answered, and that answer */
  friendsPostId: number;
  answeredCommentId: number;
  friendReplyId: number;
  /** the same on the friend's community post */
  friendsCommunityPostId: number;
  answeredCommunityCommentId: number;
  friendCommunityReplyId: number;
  /** texts of others the archive must never hold */
  othersPrivate: string[];
}

export async function activeMember(app: TestApp): Promise<ActiveMember> {
  const tag = crypto.randomBytes(3).toString('hex');
  const me = await app.user({ firstName: 'Mina', lastName: 'Data', role: 'Ambassador' });
  const friend = await app.user();
  const third = await app.user();
  const uploads: string[] = [];
  const myTexts: string[] = [];
  const othersPrivate: string[] = [];
  const mine = (s: string) => {
    const t = `${s} ${tag}`;
    myTexts.push(t);
    return t;
  };

  // profile photo, bio, settings
  const photo = ok(await me.upload('/api/user/profile-image', [{ field: 'image', name: 'me.png', type: 'image/png', data: await png(80, 80) }]), 'avatar');
  uploads.push(photo.body.profileImageUrl);
  ok(await me.put('/api/user/profile', { bio: mine('I love small museums') }), 'bio');
  ok(await me.put('/api/user/preferences', { weeklyDigest: true }), 'prefs');
  ok(await me.put('/api/user/onboarding', { interests: ['Art Museums'], location: { latitude: 45.764, longitude: 4.8357 }, status: 'done' }), 'onboarding');

  // the third member is private and has private content
  ok(await third.put('/api/user/preferences', { profileVisibility: 'private' }), 'third private');
  const secret = `third's private insight ${tag}`;
  othersPrivate.push(secret);
  ok(await third.post('/api/posts', { type: 'text', content: secret, videoUrl: null, museumId: null, tags: [] }), 'third post');

  // follows both ways; a request to the private member; a block and a mute
  ok(await me.post(`/api/user/${friend.me.id}/follow`), 'follow friend');
  ok(await friend.post(`/api/user/${me.me.id}/follow`), 'friend follows');
  ok(await me.post(`/api/user/${third.me.id}/follow`), 'request third');
  const blocked = await app.user();
  const muted = await app.user();
  ok(await me.post(`/api/user/${blocked.me.id}/block`), 'block');
  ok(await me.post(`/api/user/${muted.me.id}/mute`, {}), 'mute');

  // museums: follow, check-in, suggestions
  const museum = await createMuseum(app, `Data museum ${tag}`);
  const museumId = Number(museum.id);
  ok(await me.post(`/api/museums/${museumId}/follow`), 'museum follow');
  ok(await me.post(`/api/museums/${museumId}/checkin`, {}), 'checkin');
  ok(await me.post(`/api/museums/${museumId}/suggest-edit`, { suggestedChanges: { phone: '+33 1 23 45 67 89' }, reason: mine('Phone changed') }), 'suggest edit');
  ok(await me.post('/api/museum-suggestions', { name: `Suggested ${tag}`, address: '5 Side St', city: 'Smallville', country: 'Testland' }), 'museum suggestion');

  // insights: text and video, comment and like on the friend's, the friend comments on mine
  const text = ok(await me.post('/api/posts', { type: 'text', content: mine('My first insight'), videoUrl: null, museumId, tags: [] }), 'insight');
  const vid = ok(await uploadVideo(me, 'webm'), 'video upload');
  uploads.push(vid.body.videoUrl);
  if (vid.body.posterUrl) uploads.push(vid.body.posterUrl);
  const video = ok(await me.post('/api/posts', { type: 'video', content: mine('A video insight'), videoUrl: vid.body.videoUrl, museumId: null, tags: [] }), 'video insight');
  // a photo insight of two photos with alt text (their originals are in the archive, and go with the account)
  const photoIds: number[] = [];
  for (const [w, h] of [[120, 80], [64, 64]]) {
    const up = ok(await me.upload('/api/posts/photos', [{ field: 'photo', name: 'visit.png', type: 'image/png', data: await png(w, h, 60) }]), 'photo upload');
    uploads.push(up.body.url);
    photoIds.push(up.body.id);
  }
  const photoPost = ok(
    await me.post('/api/posts', { type: 'photo', content: mine('Photos of the visit'), museumId, tags: [], photos: photoIds.map((id, i) => ({ id, alt: mine(`Gallery view ${i + 1}`) })) }),
    'photo insight',
  );
  const friendsPost = ok(await friend.post('/api/posts', { type: 'text', content: 'friend post', videoUrl: null, museumId, tags: [] }), 'friend post');
  ok(await me.post(`/api/posts/${friendsPost.body.id}/like`), 'like');
  const myComment = ok(await me.post(`/api/posts/${friendsPost.body.id}/comments`, { content: mine('Nice one') }), 'comment');
  // the friend answers under it: on deletion it stays as "deleted member" so the answer keeps its thread
  const friendReply = ok(await friend.post(`/api/posts/${friendsPost.body.id}/comments`, { content: 'friend answer to your comment', parentId: myComment.body.id }), 'friend reply');
  // one nobody answered: deleted with the account
  ok(await me.post(`/api/posts/${friendsPost.body.id}/comments`, { content: mine('Second thought') }), 'lone comment');
  ok(await friend.post(`/api/posts/${text.body.id}/comments`, { content: 'friend reply on mine' }), 'friend comment');
  ok(await friend.post(`/api/posts/${text.body.id}/like`), 'friend like');

  // a community of mine: poll, vote, comment; the friend joins
  const community = ok(await me.post('/api/communities', { name: `Data club ${tag}`, description: 'Our club', membershipType: 'open' }), 'community');
  const communityId = community.body.id;
  ok(await friend.post(`/api/communities/${communityId}/join`, {}), 'friend joins');
  const poll = ok(await me.post(`/api/communities/${communityId}/posts`, { type: 'poll', content: mine('Which wing'), pollOptions: ['North', 'South'] }), 'poll');
  ok(await me.post(`/api/community-posts/${poll.body.id}/vote`, { optionIndex: 1 }), 'vote');
  ok(await me.post(`/api/community-posts/${poll.body.id}/comments`, { content: mine('North, surely') }), 'community comment');
  // on the friend's community post, the friend answers my comment: it stays as "Deleted member" when I go
  const friendsCommunityPost = ok(await friend.post(`/api/communities/${communityId}/posts`, { type: 'text', content: 'friend community post' }), 'friend community post');
  const myCommunityComment = ok(await me.post(`/api/community-posts/${friendsCommunityPost.body.id}/comments`, { content: mine('Count me in') }), 'community comment on the friend post');
  const friendCommunityReply = ok(
    await friend.post(`/api/community-posts/${friendsCommunityPost.body.id}/comments`, { content: 'friend answer in the community', parentId: myCommunityComment.body.id }),
    'friend community reply',
  );

  // a meetup I organise, the friend RSVPs, my photo
  const meetup = ok(
    await me.post(`/api/communities/${communityId}/meetups`, {
      title: mine('Dusk walk'),
      description: 'We walk the galleries together, then talk over coffee.',
      location: 'Main entrance',
      date: futureDate(30),
      startTime: '18:00',
      endTime: '20:00',
      timeZone: 'Europe/Paris',
    }),
    'meetup',
  );
  const meetupId = meetup.body.id;
  ok(await friend.post(`/api/meetups/${meetupId}/join`, {}), 'rsvp');
  const ph = ok(await me.upload(`/api/meetups/${meetupId}/photos`, [{ field: 'files', name: 'walk.png', type: 'image/png', data: await png(64, 48, 90) }], { caption: mine('At the gate') }), 'meetup photo');
  for (const p of ph.body) {
    uploads.push(p.url);
    if (p.thumbnailUrl) uploads.push(p.thumbnailUrl);
  }
  ok(await me.post('/api/calendar/token', {}), 'calendar token');

  // a group with a post
  const group = ok(await me.post('/api/groups', { name: `Sketchers ${tag}`, description: 'We draw' }), 'group');
  ok(await me.post(`/api/groups/${group.body.id}/posts`, { content: mine('Bring pencils') }), 'group post');

  // messages: mine with the friend (with an image); the friend's with the third stays theirs
  const img = ok(await me.upload('/api/messages/images', [{ field: 'files', name: 'a.png', type: 'image/png', data: await png(40, 30, 10) }]), 'message image');
  for (const i of img.body) {
    uploads.push(i.url);
    if (i.thumbnailUrl) uploads.push(i.thumbnailUrl);
  }
  const conv = ok(await me.post('/api/conversations', { participantIds: [friend.me.id], message: { text: mine('Hello friend') } }), 'conversation');
  const conversationId = conv.body.id;
  ok(await me.post(`/api/conversations/${conversationId}/messages`, { text: mine('See the photo'), imageIds: img.body.map((i: any) => i.id) }), 'message with image');
  ok(await friend.post(`/api/conversations/${conversationId}/messages`, { text: 'Got it' }), 'friend reply');
  const whisper = `friend to third, not for Mina ${tag}`;
  othersPrivate.push(whisper);
  await friend.post('/api/conversations', { participantIds: [third.me.id], message: { text: whisper } });

  // a day plan (plans plugin), shared by link
  ok(await me.post('/api/plans', { title: mine('Museum day'), date: '2026-12-01', visibility: 'link', stops: [{ museumId, arrival: '10:00' }] }), 'plan');

  // a report filed, a push subscription
  ok(await me.post('/api/reports', { targetType: 'insight', targetId: friendsPost.body.id, category: 'spam' }), 'report');
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  await me.post('/api/push/subscriptions', { endpoint: `https://push.example.test/${tag}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') } });

  return {
    me,
    friend,
    third,
    uploads: uploads.filter(Boolean),
    museumId,
    postIds: [text.body.id, video.body.id, photoPost.body.id],
    communityId,
    meetupId,
    conversationId,
    myTexts,
    othersPrivate,
    friendsPostId: friendsPost.body.id,
    answeredCommentId: myComment.body.id,
    friendReplyId: friendReply.body.id,
    friendsCommunityPostId: friendsCommunityPost.body.id,
    answeredCommunityCommentId: myCommunityComment.body.id,
    friendCommunityReplyId: friendCommunityReply.body.id,
  };
}

export { uniqueName };
