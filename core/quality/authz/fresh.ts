/**
 * Fresh objects for probes that would otherwise use up or change the world's objects (deleting,
 * removing a member, accepting a request, voting once). Everything goes through the HTTP API.
 */
import type { SignedInClient, TestClient } from '../../testing/index.ts';
import { memberIdOf, must, meetupBody, museumEventBody, type World } from '../fixtures/world.ts';
import { rnd } from './types.ts';

/** A new Traveler who joins community C; answers the client and its member id. */
export async function freshMemberOfC(w: World, communityId = w.community.id, owner: TestClient = w.c.creator): Promise<{ client: SignedInClient; memberId: number }> {
  const client = await w.app.user();
  must(await client.post(`/api/communities/${communityId}/join`, {}), 'fresh join');
  return { client, memberId: await memberIdOf(owner, communityId, client.me.id) };
}

/** A community target: 'own' = C (the community where creator/moderator/member have their roles), 'other' = D (the ambassador's). */
export function communityOf(w: World, obj: 'own' | 'other' | null): any {
  return obj === 'other' ? w.otherCommunity : w.community;
}
export function ownerOf(w: World, obj: 'own' | 'other' | null): TestClient {
  return obj === 'other' ? w.c.ambassador : w.c.creator;
}

/** A new open community shaped like C (moderator promoted, member joined) or like D (other joined). */
export async function freshCommunity(w: World, like: 'own' | 'other'): Promise<any> {
  if (like === 'other') {
    const d = must(await w.c.ambassador.post('/api/communities', { name: `Fresh D ${rnd()}`, membershipType: 'open' }), 'fresh D');
    must(await w.other.post(`/api/communities/${d.id}/join`, {}), 'fresh D join');
    return d;
  }
  const c = must(await w.c.creator.post('/api/communities', { name: `Fresh C ${rnd()}`, membershipType: 'open' }), 'fresh C');
  must(await w.c.moderator.post(`/api/communities/${c.id}/join`, {}), 'fresh C join mod');
  must(await w.c.member.post(`/api/communities/${c.id}/join`, {}), 'fresh C join member');
  const mod = await memberIdOf(w.c.creator, c.id, w.u.moderator.id);
  must(await w.c.creator.patch(`/api/communities/${c.id}/members/${mod}/role`, { role: 'moderator' }), 'fresh C moderator');
  return c;
}

export async function freshCommunityPost(author: TestClient, communityId: number, extra: Record<string, unknown> = {}): Promise<any> {
  return must(await author.post(`/api/communities/${communityId}/posts`, { type: 'text', content: `Post ${rnd()}`, ...extra }), 'fresh community post');
}

export async function freshCommunityComment(author: TestClient, postId: number): Promise<any> {
  return must(await author.post(`/api/community-posts/${postId}/comments`, { content: `Comment ${rnd()}` }), 'fresh community comment');
}

/** A post waiting for review in C: a fresh member whose posts need approval writes it. */
export async function freshPendingPost(w: World): Promise<any> {
  const m = await freshMemberOfC(w);
  must(await w.c.creator.patch(`/api/communities/${w.community.id}/members/${m.memberId}/permissions`, { requiresApproval: true }), 'require approval');
  const post = await freshCommunityPost(m.client, w.community.id);
  if (post.status !== 'pending') throw new Error(`expected a pending post, got ${post.status}`);
  return post;
}

/** An open report in C: member reports a fresh post of the moderator. */
export async function freshReport(w: World): Promise<number> {
  const post = await freshCommunityPost(w.c.moderator, w.community.id);
  must(await w.c.member.post(`/api/community-posts/${post.id}/report`, { reason: 'Off topic' }), 'fresh report');
  const reports = must<any[]>(await w.c.creator.get(`/api/communities/${w.community.id}/reports`), 'reports');
  const r = reports.find((x) => x.postId === post.id || x.targetId === post.id || x.post?.id === post.id) ?? reports.find((x) => x.status === 'open');
  return r.id;
}

/** A pending request to join P by a fresh account. */
export async function freshJoinRequest(w: World): Promise<number> {
  const u = await w.app.user();
  must(await u.post(`/api/communities/${w.privateCommunity.id}/join`, {}), 'fresh join request');
  const list = must<any[]>(await w.c.creator.get(`/api/communities/${w.privateCommunity.id}/join-requests`), 'join requests');
  return list.find((r) => r.user?.id === u.me.id).id;
}

/** A fresh account banned from C by its creator. */
export async function freshBannedFromC(w: World): Promise<number> {
  const m = await freshMemberOfC(w);
  must(await w.c.creator.post(`/api/communities/${w.community.id}/members/${m.memberId}/ban`, { reason: 'test' }), 'fresh ban');
  return m.client.me.id;
}

// ---------------------------------------------------------------- groups

/** A new group shaped like G (creator's; member and moderator joined). */
export async function freshGroup(w: World, like: 'own' | 'other' = 'own'): Promise<any> {
  if (like === 'other') {
    const h = must(await w.c.ambassador.post('/api/groups', { name: `Fresh H ${rnd()}` }), 'fresh H');
    must(await w.other.post(`/api/groups/${h.id}/join`, {}), 'fresh H join');
    return h;
  }
  const g = must(await w.c.creator.post('/api/groups', { name: `Fresh G ${rnd()}` }), 'fresh G');
  must(await w.c.member.post(`/api/groups/${g.id}/join`, {}), 'fresh G join');
  must(await w.c.moderator.post(`/api/groups/${g.id}/join`, {}), 'fresh G join 2');
  return g;
}

export async function freshGroupPost(author: TestClient, groupId: number): Promise<any> {
  return must(await author.post(`/api/groups/${groupId}/posts`, { content: `Group post ${rnd()}` }), 'fresh group post');
}

// ---------------------------------------------------------------- events

export async function freshMeetup(w: World, extra: Record<string, unknown> = {}): Promise<any> {
  const m = must(await w.c.creator.post(`/api/communities/${w.community.id}/meetups`, meetupBody(`Fresh meetup ${rnd()}`, { maxAttendees: 50, ...extra })), 'fresh meetup');
  return m;
}

export async function freshMuseumEvent(w: World, extra: Record<string, unknown> = {}): Promise<any> {
  return must(await w.c.manager.post('/api/museum-events', museumEventBody(w.museumA.id, `Fresh event ${rnd()}`, { maxAttendees: 50, ...extra })), 'fresh museum event');
}

// ---------------------------------------------------------------- users

/** A fresh Traveler (a target for admin actions). */
export async function freshUser(w: World): Promise<SignedInClient> {
  return w.app.user();
}
