/**
 * Events: meetups (in community C, organised by its creator; member attends) and museum events
 * (at museum A, by its manager). For museum-scoped routes 'own' = museum A (manager's) and
 * 'other' = museum B (managerOther's). For photos and comments 'own' = the caller's own item.
 */
import { everyone, member, rnd, type AuthzRow, type Expect, type ExpectKey } from './types.ts';
import { must, meetupBody, museumEventBody, smallPng, type World } from '../fixtures/world.ts';
import { freshMeetup, freshMuseumEvent } from './fresh.ts';
import type { TestClient } from '../../testing/index.ts';

type E = Partial<Record<ExpectKey, Expect>>;
const both: Array<'own' | 'other'> = ['own', 'other'];
const museumOf = (w: World, obj: 'own' | 'other' | null) => (obj === 'other' ? w.museumB : w.museumA);
const museumManagerOf = (w: World, obj: 'own' | 'other' | null): TestClient => (obj === 'other' ? w.c.managerOther : w.c.manager);
/** Admin and the manager of the target museum */
const museumManagers = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, admin: ok, 'manager:own': ok, 'managerOther:other': ok });

/** meetup participants: the organizer (creator) and the members of C */
const meetupParticipants = ['creator', 'moderator', 'member'];

async function eventAt(w: World, obj: 'own' | 'other' | null, extra: Record<string, unknown> = {}): Promise<any> {
  if (obj !== 'other') return freshMuseumEvent(w, extra);
  return must(await w.c.managerOther.post('/api/museum-events', museumEventBody(w.museumB.id, `Event B ${rnd()}`, { maxAttendees: 50, ...extra })), 'event at B');
}

async function photo(client: TestClient, base: string): Promise<any> {
  return must<any[]>(await client.upload(`${base}/photos`, [{ field: 'files', name: 'p.png', type: 'image/png', data: await smallPng() }]), 'photo')[0];
}
async function comment(client: TestClient, base: string): Promise<any> {
  return must(await client.post(`${base}/comments`, { content: `Comment ${rnd()}` }), 'comment');
}

const ownNa = (who: string[]) => Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin', 'banned'].filter((r) => !who.includes(r)).map((r) => [`${r}:own`, 'n/a']));

export const rows: AuthzRow[] = [
  {
    route: 'POST /api/communities/:id/meetups',
    objects: both,
    note: "C: its creator (an Ambassador); Travelers and the Admin are not Ambassadors (403); D: its creator (the ambassador). An Ambassador who is not a member: 403",
    req: (p) => ({ params: { id: (p.obj === 'other' ? p.w.otherCommunity : p.w.community).id }, body: meetupBody(`Meetup ${rnd()}`) }),
    expect: { signedOut: 401, signedIn: 403, 'creator:own': 201, 'ambassador:other': 201 },
  },
  {
    route: 'GET /api/communities/:id/meetups',
    req: (p) => ({ params: { id: p.w.community.id } }),
    expect: member(),
  },
  {
    route: 'POST /api/groups/:id/meetups',
    objects: both,
    note: "G: its creator; H: its creator (the ambassador); Ambassadors who are not members and everyone else: 403",
    req: (p) => ({ params: { id: (p.obj === 'other' ? p.w.otherGroup : p.w.group).id }, body: meetupBody(`Group meetup ${rnd()}`) }),
    expect: { signedOut: 401, signedIn: 403, 'creator:own': 201, 'ambassador:other': 201 },
  },
  { route: 'GET /api/groups/:id/meetups', req: (p) => ({ params: { id: p.w.group.id } }), expect: member() },
  { route: 'GET /api/meetup-hosts', expect: member() },
  {
    route: 'GET /api/meetup-hours-check',
    req: (p) => ({ query: { museumId: p.w.museumA.id, date: '2031-07-01', startTime: '11:00', endTime: '12:00' } }),
    expect: member(),
    note: "the meetup form's live check against the museum's hours (issue 20): reads only, any signed-in member",
  },
  { route: 'GET /api/meetups', expect: everyone(), note: 'meetups of open communities and groups are public (events README, Visibility); private ones 404 to non-members (object-level probes)' },
  { route: 'GET /api/meetups/:id', req: (p) => ({ params: { id: p.w.meetup.id } }), expect: everyone(), note: 'meetups of open communities and groups are public (events README, Visibility); private ones 404 to non-members (object-level probes)' },
  {
    route: 'PUT /api/meetups/:id',
    req: (p) => ({ params: { id: p.w.meetup.id }, body: meetupBody(`Edited meetup ${rnd()}`, { maxAttendees: 50 }) }),
    expect: { signedOut: 401, signedIn: 403, creator: 200 },
    note: 'spec part 2 §6: only its organizer edits a meetup',
  },
  { route: 'DELETE /api/meetups/:id', req: async (p) => ({ params: { id: (await freshMeetup(p.w)).id } }), expect: { signedOut: 401, signedIn: 403, creator: 200 } },
  {
    route: 'POST /api/meetups/:id/cover',
    note: 'the organizer only; the image itself is checked by the upload corpus',
    req: async (p) => ({ params: { id: p.w.meetup.id }, files: [{ field: 'image', name: 'c.png', type: 'image/png', data: await smallPng() }] }),
    expect: { signedOut: 401, signedIn: 403, creator: 200 },
  },
  {
    route: 'POST /api/museum-events/:id/cover',
    objects: both,
    note: "the museum's manager or an Admin",
    req: async (p) => ({ params: { id: (await eventAt(p.w, p.obj)).id }, files: [{ field: 'image', name: 'c.png', type: 'image/png', data: await smallPng() }] }),
    expect: museumManagers(),
  },
  { route: 'GET /api/museum-events', expect: everyone() },
  { route: 'GET /api/museum-events/:id', req: (p) => ({ params: { id: p.w.museumEvent.id } }), expect: everyone() },
  {
    route: 'POST /api/museum-events',
    objects: both,
    req: (p) => ({ body: museumEventBody(museumOf(p.w, p.obj).id, `Event ${rnd()}`) }),
    expect: museumManagers(201),
  },
  {
    route: 'PUT /api/museum-events/:id',
    objects: both,
    req: async (p) => {
      const ev = await eventAt(p.w, p.obj);
      return { params: { id: ev.id }, body: museumEventBody(museumOf(p.w, p.obj).id, `Edited ${rnd()}`) };
    },
    expect: museumManagers(),
  },
  { route: 'DELETE /api/museum-events/:id', objects: both, req: async (p) => ({ params: { id: (await eventAt(p.w, p.obj)).id } }), expect: museumManagers() },
  {
    route: 'POST /api/meetups/:id/join',
    note: "a fresh members-only meetup of C per probe: its organizer and C's members join; others 403",
    req: async (p) => ({ params: { id: (await freshMeetup(p.w)).id }, body: { status: 'attending' } }),
    expect: { signedOut: 401, signedIn: 403, creator: 200, moderator: 200, member: 200 },
  },
  {
    route: 'DELETE /api/meetups/:id/join',
    note: 'a fresh meetup the member attends; cancelling an RSVP one does not have changes nothing (200, idempotent)',
    req: async (p) => {
      const m = await freshMeetup(p.w);
      must(await p.w.c.member.post(`/api/meetups/${m.id}/join`, { status: 'attending' }), 'attend');
      return { params: { id: m.id } };
    },
    expect: member(),
  },
  { route: 'GET /api/meetups/:id/ics', req: (p) => ({ params: { id: p.w.meetup.id } }), expect: everyone(), note: 'meetups of open communities and groups are public (events README, Visibility); private ones 404 to non-members (object-level probes)' },
  { route: 'GET /api/meetups/:meetupId/photos', req: (p) => ({ params: { meetupId: p.w.meetup.id } }), expect: everyone(), note: 'meetups of open communities and groups are public (events README, Visibility); private ones 404 to non-members (object-level probes)' },
  {
    route: 'POST /api/meetups/:meetupId/photos',
    req: async (p) => ({ params: { meetupId: p.w.meetup.id }, files: [{ field: 'files', name: 'm.png', type: 'image/png', data: await smallPng() }] }),
    expect: { signedOut: 401, signedIn: 403, creator: 201, moderator: 201, member: 201 },
    note: 'participants only: the organizer and the members of the meetup community (or attendees)',
  },
  {
    route: 'DELETE /api/meetups/:meetupId/photos/:photoId',
    objects: both,
    note: "own: the caller's photo (participants); other: member's (moderator's when member asks) — only the uploader or the organizer deletes",
    req: async (p) => {
      const base = `/api/meetups/${p.w.meetup.id}`;
      if (p.obj === 'own') return meetupParticipants.includes(p.as) ? { params: { meetupId: p.w.meetup.id, photoId: (await photo(p.w.c[p.as as 'member'], base)).id } } : null;
      return { params: { meetupId: p.w.meetup.id, photoId: (await photo(p.as === 'member' ? p.w.c.moderator : p.w.c.member, base)).id } };
    },
    expect: { signedOut: 401, default: 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, ...ownNa(meetupParticipants) } as E,
  },
  { route: 'GET /api/meetups/:id/comments', req: (p) => ({ params: { id: p.w.meetup.id } }), expect: everyone(), note: 'meetups of open communities and groups are public (events README, Visibility); private ones 404 to non-members (object-level probes)' },
  {
    route: 'POST /api/meetups/:id/comments',
    req: (p) => ({ params: { id: p.w.meetup.id }, body: { content: `Comment ${rnd()}` } }),
    expect: { signedOut: 401, signedIn: 403, creator: 201, moderator: 201, member: 201 },
  },
  {
    route: 'DELETE /api/meetups/:id/comments/:commentId',
    objects: both,
    req: async (p) => {
      const base = `/api/meetups/${p.w.meetup.id}`;
      if (p.obj === 'own') return meetupParticipants.includes(p.as) ? { params: { id: p.w.meetup.id, commentId: (await comment(p.w.c[p.as as 'member'], base)).id } } : null;
      return { params: { id: p.w.meetup.id, commentId: (await comment(p.as === 'member' ? p.w.c.moderator : p.w.c.member, base)).id } };
    },
    expect: { signedOut: 401, default: 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, ...ownNa(meetupParticipants) } as E,
  },
  { route: 'POST /api/museum-events/:id/join', req: async (p) => ({ params: { id: (await freshMuseumEvent(p.w)).id }, body: { status: 'interested' } }), expect: member() },
  {
    route: 'DELETE /api/museum-events/:id/join',
    req: async (p) => {
      const ev = await freshMuseumEvent(p.w);
      must(await p.w.c.member.post(`/api/museum-events/${ev.id}/join`, { status: 'attending' }), 'rsvp');
      return { params: { id: ev.id } };
    },
    expect: member(),
  },
  { route: 'GET /api/museum-events/:id/ics', req: (p) => ({ params: { id: p.w.museumEvent.id } }), expect: everyone() },
  { route: 'GET /api/museum-events/:id/photos', req: (p) => ({ params: { id: p.w.museumEvent.id } }), expect: everyone() },
  {
    route: 'POST /api/museum-events/:id/photos',
    objects: both,
    note: "attendees (member attends E) and the museum's managers; B's event: its manager",
    req: async (p) => {
      const ev = p.obj === 'other' ? await eventAt(p.w, 'other') : p.w.museumEvent;
      return { params: { id: ev.id }, files: [{ field: 'files', name: 'e.png', type: 'image/png', data: await smallPng() }] };
    },
    expect: { ...museumManagers(201), 'member:own': 201 },
  },
  {
    route: 'DELETE /api/museum-events/:id/photos/:photoId',
    objects: both,
    note: "own: the caller's photo (attendee or manager of A); other: member's photo — the uploader, A's manager and Admins delete",
    req: async (p) => {
      const base = `/api/museum-events/${p.w.museumEvent.id}`;
      if (p.obj === 'own') return ['member', 'manager', 'admin'].includes(p.as) ? { params: { id: p.w.museumEvent.id, photoId: (await photo(p.w.c[p.as as 'member'], base)).id } } : null;
      return { params: { id: p.w.museumEvent.id, photoId: (await photo(p.as === 'member' ? p.w.c.manager : p.w.c.member, base)).id } };
    },
    expect: { signedOut: 401, default: 403, 'member:own': 200, 'manager:own': 200, 'admin:own': 200, 'manager:other': 200, 'admin:other': 200, ...ownNa(['member', 'manager', 'admin']) } as E,
  },
  { route: 'GET /api/museum-events/:id/comments', req: (p) => ({ params: { id: p.w.museumEvent.id } }), expect: everyone() },
  { route: 'POST /api/museum-events/:id/comments', req: (p) => ({ params: { id: p.w.museumEvent.id }, body: { content: `Comment ${rnd()}` } }), expect: member(201), note: "a museum event's discussion is open to every member" },
  {
    route: 'DELETE /api/museum-events/:id/comments/:commentId',
    objects: both,
    req: async (p) => {
      const base = `/api/museum-events/${p.w.museumEvent.id}`;
      if (p.obj === 'own') return p.as === 'banned' ? null : { params: { id: p.w.museumEvent.id, commentId: (await comment(p.w.c[p.as as 'member'], base)).id } };
      return { params: { id: p.w.museumEvent.id, commentId: (await comment(p.as === 'member' ? p.w.c.moderator : p.w.c.member, base)).id } };
    },
    expect: { signedOut: 401, default: 403, 'banned:own': 'n/a', ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'].map((r) => [`${r}:own`, 200])), 'manager:other': 200, 'admin:other': 200 } as E,
  },
  { route: 'GET /api/calendar/token', expect: member() },
  { route: 'POST /api/calendar/token', req: async (p) => (p.as === 'traveler' ? { client: await p.w.app.user() } : {}), expect: member(), note: "the traveler's feed stays: a fresh account rotates instead" },
  {
    route: 'GET /api/calendar/:file',
    note: 'the secret address is the credential: anyone holding it reads the feed, signed in or not',
    req: (p) => ({ params: { file: p.w.calendarFile } }),
    expect: everyone(),
  },
  { route: 'GET /api/search/events', req: () => ({ query: { q: 'Quality' } }), expect: everyone() },
];
