/**
 * Privacy sweep: accounts' rule in every answer. "One accounts rule decides who may see a member
 * and their content; every list, search, suggestion, notification and feed applies it. A new list
 * that forgets it is a defect." Each plugin tests its own lists; this test finds the list nobody
 * wrote a test for.
 *
 * The authorization matrix's world (core/quality/fixtures/world.ts), where `member` has content in
 * every plugin (community and group posts and comments, a meetup's attendance, comments and photos,
 * a museum event's), with more of theirs added here (an insight about museum A, a comment on an
 * insight, a like, a public plan, a message in a group conversation, a follow that notified the
 * viewer, a meetup they organise). The viewer is `traveler`, made a member of the community, the group and the meetup, so
 * that the routes answer them. Then a block, one way and then the other, and every GET route of the
 * matrix (core/quality/authz/) is requested as the viewer, with its own parameters and with the
 * hidden member's username as the search text where the route takes one, plus the hidden member's
 * own profile routes; again with the viewer's mute of them, and with their deletion pending. No
 * answer may name the hidden member: their username, their first name (unique here), or their id
 * in an author's, sender's, organizer's or uploader's field.
 *
 * An answer that must name them says why in SHOWN (the viewer's own block list, say).
 * PRIVACY_SWEEP_RECORD=1 prints every leak instead of failing.
 */
import { expect } from 'chai';
import { startTestApp, setDeletionPending, type SignedInClient, type TestApp } from '../testing/index.ts';
import { buildWorld, meetupBody, must, type World } from './fixtures/world.ts';
import { startExternalStub, type ExternalStub } from './fixtures/external-stub.ts';
import { AUTHZ_TABLE } from './authz/index.ts';
import { buildPath, type ReqSpec } from './authz/types.ts';

const RECORD = process.env.PRIVACY_SWEEP_RECORD === '1';
const HIDDEN_NAME = 'Zephyrine';

/** who blocked whom, the viewer's mute of the hidden member, or the hidden member's deletion pending */
type Blocker = 'hidden' | 'viewer' | 'muted' | 'pending';

/**
 * Answers that name a member blocked either way by design: why, for which direction of the block,
 * and what of the answer is left out before it is searched (the rest must still not name them).
 */
const SHOWN: Record<string, { why: string; when?: Blocker[]; check?: (body: any, hiddenId: number, blocker: Blocker) => any }> = {
  'GET /api/user/blocks': { why: "the viewer's own block list names whom they blocked (that is its purpose)" },
  'GET /api/user/:id': {
    why: 'the blocker opens the profile of whom they blocked: name and avatar only, and the way to unblock; a muted member\'s profile opens (the mute is undone there), without their insights',
    when: ['viewer', 'muted'],
    check: profileShown,
  },
  'GET /api/user/slug/:slug': { why: 'as GET /api/user/:id', when: ['viewer', 'muted'], check: profileShown },
  // a mute hides a member's content from the muter's feeds, lists and notifications; the member themself can still be found
  'GET /api/user/mutes': { why: "the viewer's own mute list", when: ['muted'] },
  'GET /api/user/:id/followers': { why: 'who follows whom is not content: a mute does not change it (blocks and a deletion do)', when: ['muted'] },
  'GET /api/user/:id/following': { why: 'as followers', when: ['muted'] },
  'GET /api/search': { why: 'the people search finds a muted member by name (their profile is where the mute is undone); their insights are left out', when: ['muted'], check: (body) => ({ ...body, users: [] }) },
  'GET /api/feeds/museums/:id/insights.atom': {
    why: 'a public feed is one document for every reader, what a signed-out visitor sees (shared caches serve it): a block or a mute between two members does not change it; a deletion pending does',
    when: ['hidden', 'viewer', 'muted'],
  },
  'GET /api/feeds/members/:id/insights.atom': { why: "as a museum's insights feed", when: ['hidden', 'viewer', 'muted'] },
  'GET /api/conversations': {
    why: "a group conversation lists its participants, a blocked member among them (messages README: they are in the group), while their messages are left out; a mute does not reach into conversations one takes part in (as on Twitter: a conversation has its own mute)",
    check: (body, _id, blocker) => (blocker === 'muted' ? {} : { ...body, items: (body.items ?? []).map((c: any) => ({ ...c, participants: c.kind === 'group' ? [] : c.participants })) }),
  },
};

/** the hidden member's profile answer, searched as empty: whole to a muter, nothing but name and avatar (`limited`) to the blocker */
function profileShown(body: any, hiddenId: number, blocker: Blocker): any {
  if (body?.id !== hiddenId) return body;
  if (blocker !== 'muted') expect(body.limited, "a blocked member's profile, to the blocker: limited").to.equal(true);
  return {};
}

describe('quality: privacy sweep — a member blocked either way, muted or pending deletion is named in no answer', function () {
  this.timeout(600_000);
  let app: TestApp;
  let w: World;
  let stub: ExternalStub;
  let viewer: SignedInClient;
  let hidden: SignedInClient;

  before(async () => {
    stub = await startExternalStub();
    app = await startTestApp(stub.overrides());
    w = await buildWorld(app);
    viewer = w.c.traveler as SignedInClient;
    hidden = w.c.member as SignedInClient;
    // the viewer joins where the hidden member is: the routes answer them
    must(await viewer.post(`/api/communities/${w.community.id}/join`, {}), 'join C');
    must(await viewer.post(`/api/groups/${w.group.id}/join`, {}), 'join G');
    must(await viewer.post(`/api/meetups/${w.meetup.id}/join`, { status: 'attending' }), 'join meetup');
    must(await viewer.post(`/api/museum-events/${w.museumEvent.id}/join`, { status: 'attending' }), 'join event');
    must(await viewer.post(`/api/museums/${w.museumA.id}/follow`), 'follow museum A');
    // a name of their own: answers that name them without their username (a notification's text) count too
    must(await hidden.put('/api/user/profile', { firstName: HIDDEN_NAME, lastName: 'Hidden' }), 'hidden member name');
    // more of the hidden member's content, where the world has none of theirs
    const insight = must(await hidden.post('/api/posts', { type: 'text', content: 'An insight by the hidden member', museumId: w.museumA.id, tags: ['q'] }), 'insight');
    must(await hidden.post(`/api/posts/${w.post.id}/comments`, { content: 'A comment by the hidden member' }), 'comment');
    must(await hidden.post(`/api/posts/${w.post.id}/like`), 'like');
    must(await hidden.post(`/api/museums/${w.museumA.id}/follow`), 'hidden follows museum A');
    must(await hidden.post('/api/plans', { title: 'A public plan', date: new Date(Date.now() + 7 * 86400000).toISOString().slice(0, 10), visibility: 'public' }), 'plan');
    must(await hidden.post(`/api/user/${viewer.me.id}/follow`), 'follow the viewer'); // a notification for the viewer
    // an Ambassador for a while, to organise a meetup in the community (then a Traveler again, as the matrix's world has them)
    must(await w.c.admin.post('/api/admin/change-user-role', { userId: hidden.me.id, role: 'Ambassador' }), 'hidden member: Ambassador');
    must(await hidden.post(`/api/communities/${w.community.id}/meetups`, meetupBody('A meetup the hidden member organises')), 'meetup by the hidden member');
    must(await w.c.admin.post('/api/admin/change-user-role', { userId: hidden.me.id, role: 'Traveler' }), 'hidden member: Traveler again');
    must(await viewer.post(`/api/posts/${insight.id}/comments`, { content: 'The viewer answers' }), 'viewer comments');
    const conv = must(await w.other.post('/api/conversations', { participantIds: [hidden.me.id, viewer.me.id], message: { text: 'A group conversation' } }), 'conversation');
    must(await hidden.post(`/api/conversations/${conv.id}/messages`, { text: 'A message by the hidden member' }), 'message');
    await app.events.settled();
  });
  after(async () => {
    await app?.close();
    await stub?.close();
  });

  /** what names the hidden member in an answer's text */
  function names(text: string): string | null {
    if (text.includes(hidden.me.username)) return `username ${hidden.me.username}`;
    if (text.includes(HIDDEN_NAME)) return `name ${HIDDEN_NAME}`;
    const m = new RegExp(`"(userId|authorId|senderId|organizerId|uploaderId|actorId|ownerId|creatorId)":\\s*${hidden.me.id}\\b`).exec(text);
    return m ? m[0] : null;
  }

  /**
   * every GET the matrix has, with the viewer's request (for each object variant), and the search
   * routes with the hidden member's username; built once (some rows' requests sign up a member)
   */
  let probed: Array<{ route: string; path: string }> | null = null;
  async function probes(): Promise<Array<{ route: string; path: string }>> {
    if (probed) return probed;
    const out: Array<{ route: string; path: string }> = [];
    for (const row of Object.values(AUTHZ_TABLE).flat()) {
      if (!row.route.startsWith('GET ')) continue;
      for (const obj of row.objects ?? [null]) {
        let req: ReqSpec | null;
        try {
          req = row.req ? await row.req({ w, as: 'traveler', obj, client: viewer }) : {};
        } catch {
          continue; // a probe that needs what this viewer does not have
        }
        if (req === null || req.client) continue;
        out.push({ route: row.route, path: buildPath(row.route, req) });
        if (req.query && 'q' in req.query) out.push({ route: row.route, path: buildPath(row.route, { ...req, query: { ...req.query, q: hidden.me.username } }) });
      }
    }
    // the hidden member's own pages
    const id = hidden.me.id;
    const own: Array<[string, string]> = [
      ['GET /api/user/:id', `/api/user/${id}`],
      ['GET /api/user/slug/:slug', `/api/user/slug/${hidden.me.slug}`],
      ['GET /api/user/:id/followers', `/api/user/${id}/followers`],
      ['GET /api/user/:id/following', `/api/user/${id}/following`],
      ['GET /api/user/:id/badges', `/api/user/${id}/badges`],
      ['GET /api/user/:id/posts', `/api/user/${id}/posts`],
      ['GET /api/users/:id/plans', `/api/users/${id}/plans`],
      ['GET /api/feeds/members/:id/insights.atom', `/api/feeds/members/${id}/insights.atom`],
    ];
    for (const [route, path] of own) out.push({ route, path });
    for (const path of [`/api/search?q=${hidden.me.username}`, `/api/users/active?limit=50`, `/api/recommendations/users?limit=50`]) out.push({ route: `GET ${path.split('?')[0]}`, path });
    probed = out.filter((p, i) => out.findIndex((q) => q.path === p.path) === i);
    return probed;
  }

  /** `blocker`: who blocked whom, or the deletion pending (null: nothing hides them yet) */
  async function sweep(blocker: Blocker | null): Promise<string[]> {
    const leaks: string[] = [];
    for (const p of await probes()) {
      const r = await viewer.get(p.path);
      if (r.status >= 500) leaks.push(`${p.path}: ${r.status}`);
      if (r.status >= 300) continue;
      const shown = blocker ? SHOWN[p.route] : undefined;
      let text = r.text;
      if (shown && (!shown.when || shown.when.includes(blocker!))) {
        if (!shown.check) continue;
        text = JSON.stringify(shown.check(r.body, hidden.me.id, blocker!));
      }
      const found = names(text);
      if (found) leaks.push(`${p.path} names them (${found})`);
    }
    return leaks;
  }

  /** the sweep finds nothing (PRIVACY_SWEEP_RECORD=1: prints what it found) */
  async function expectNoLeaks(blocker: Blocker, label: string): Promise<void> {
    const leaks = await sweep(blocker);
    if (RECORD) console.log(`    ${label}:\n      ${leaks.join('\n      ')}`);
    else expect(leaks, leaks.join('\n')).to.deep.equal([]);
  }

  it('the world shows the hidden member to the viewer before any block (the sweep can see them)', async () => {
    const leaks = await sweep(null);
    // not a leak yet: the proof that the probes reach the hidden member's content
    expect(leaks.length, 'answers that name the hidden member before the block').to.be.greaterThan(10);
  });

  for (const [label, who] of [
    ['the hidden member blocked the viewer', 'hidden'],
    ['the viewer blocked the hidden member', 'viewer'],
  ] as const) {
    it(`${label}: no answer names them`, async () => {
      const [a, b] = who === 'hidden' ? [hidden, viewer] : [viewer, hidden];
      expect((await a.post(`/api/user/${b.me.id}/block`)).status).to.be.oneOf([200, 201]);
      try {
        await expectNoLeaks(who, label);
      } finally {
        expect((await a.del(`/api/user/${b.me.id}/block`)).status).to.be.oneOf([200, 204]);
      }
    });
  }

  it('the viewer muted the hidden member: no list, feed or notification names them', async () => {
    expect((await viewer.post(`/api/user/${hidden.me.id}/mute`, {})).status).to.be.oneOf([200, 201]);
    try {
      await expectNoLeaks('muted', 'muted');
    } finally {
      expect((await viewer.del(`/api/user/${hidden.me.id}/mute`)).status).to.equal(200);
    }
  });

  it('the hidden member asked for their deletion (the grace period): no answer names them', async () => {
    await setDeletionPending(app, hidden.me.id);
    try {
      await expectNoLeaks('pending', 'deletion pending');
    } finally {
      await setDeletionPending(app, hidden.me.id, false);
    }
  });
});
