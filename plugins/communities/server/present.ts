/** Rows → API objects, with every lookup batched (one query per kind, never one per row). */
import type { Knex } from 'knex';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import type { Access, CommunityRow, MemberRow } from './access.ts';
import { RANK, mayDeleteContent, rankOf, ranksIn } from './access.ts';
import { iso } from './util.ts';
import { storedMentionList } from '../../../core/threads.ts';

export type Users = Map<number, UserSummary>;

export async function users(accounts: AccountsApi, ids: Array<number | null | undefined>): Promise<Users> {
  return accounts.getUserSummaries(ids.filter((i): i is number => typeof i === 'number'));
}

export function card(c: CommunityRow, u: Users, membership: Pick<MemberRow, 'role'> | null | undefined, viewerId?: number) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    imageUrl: c.image_url,
    location: c.location,
    type: c.type,
    membershipType: c.membership_type,
    tags: c.tags ?? [],
    memberCount: c.member_count,
    creatorId: c.creator_id,
    creator: u.get(c.creator_id) ?? null,
    isMember: Boolean(membership) || viewerId === c.creator_id,
    role: viewerId === c.creator_id ? 'admin' : (membership?.role ?? null),
    createdAt: iso(c.created_at)!,
  };
}

/** Cards for many communities: creators and the viewer's memberships in two queries. */
export async function cards(knex: Knex, accounts: AccountsApi, rows: CommunityRow[], viewerId?: number) {
  const u = await users(accounts, rows.map((r) => r.creator_id));
  const mine = new Map<number, Pick<MemberRow, 'role'>>();
  if (viewerId && rows.length) {
    const ms = await knex('community_members').where({ user_id: viewerId }).whereIn('community_id', rows.map((r) => r.id)).select('community_id', 'role');
    for (const m of ms) mine.set(m.community_id, m);
  }
  return rows.map((r) => card(r, u, mine.get(r.id), viewerId));
}

export function restrictions(m: MemberRow) {
  return { canPost: m.can_post, canComment: m.can_comment, isMuted: m.is_muted, requiresApproval: m.requires_approval };
}

export async function detail(knex: Knex, accounts: AccountsApi, a: Access) {
  const c = a.community;
  const u = await users(accounts, [c.creator_id]);
  const viewerId = a.user?.id;
  const [{ n: postsCount }] = await knex('community_posts').where({ community_id: c.id, status: 'published' }).count({ n: '*' });
  let joinRequestStatus: 'pending' | null = null;
  let isBanned = false;
  if (viewerId && !a.member) {
    const jr = await knex('community_join_requests').where({ community_id: c.id, user_id: viewerId, status: 'pending' }).first('id');
    joinRequestStatus = jr ? 'pending' : null;
    isBanned = Boolean(await knex('community_bans').where({ community_id: c.id, user_id: viewerId }).first('user_id'));
  }
  const counts = { pendingRequestsCount: 0, openReportsCount: 0, pendingPostsCount: 0 };
  if (a.rank >= RANK.moderator) {
    const [[r], [p]] = await Promise.all([
      knex('community_reports').where({ community_id: c.id, status: 'open' }).count({ n: '*' }),
      knex('community_posts').where({ community_id: c.id, status: 'pending' }).count({ n: '*' }),
    ]);
    counts.openReportsCount = Number(r.n);
    counts.pendingPostsCount = Number(p.n);
  }
  if (a.rank >= RANK.admin) {
    const [r] = await knex('community_join_requests').where({ community_id: c.id, status: 'pending' }).count({ n: '*' });
    counts.pendingRequestsCount = Number(r.n);
  }
  const m = a.member;
  const canPostNow = Boolean(m) && !a.user?.restricted && !m!.is_muted && m!.can_post;
  const canCommentNow = Boolean(m) && !a.user?.restricted && !m!.is_muted && m!.can_comment;
  return {
    ...card(c, u, m, viewerId),
    rules: c.rules,
    postsCount: Number(postsCount),
    isMember: Boolean(m) || a.isCreator,
    isCreator: a.isCreator,
    joinRequestStatus,
    isBanned,
    restrictions: m ? restrictions(m) : null,
    permissions: {
      canPost: canPostNow,
      canComment: canCommentNow,
      canModerate: a.rank >= RANK.moderator,
      canManageMembers: a.rank >= RANK.admin,
      canChangeRoles: a.isCreator,
      canEdit: a.isCreator,
      canDelete: a.isCreator,
    },
    ...counts,
  };
}

export async function members(knex: Knex, accounts: AccountsApi, a: Access, rows: MemberRow[]) {
  const [u, bios] = await Promise.all([users(accounts, rows.map((r) => r.user_id)), accounts.getUserBios(rows.map((r) => r.user_id), a.user)]);
  const showPrivate = a.rank >= RANK.moderator;
  const statsFor = new Set(showPrivate ? rows.map((r) => r.user_id) : a.user ? [a.user.id] : []);
  const ids = rows.map((r) => r.user_id).filter((id) => statsFor.has(id));
  const posts = new Map<number, { n: number; last: Date | null }>();
  const comments = new Map<number, { n: number; last: Date | null }>();
  const warnings = new Map<number, number>();
  if (ids.length) {
    const [p, c, w] = await Promise.all([
      knex('community_posts').where({ community_id: a.community.id, status: 'published' }).whereIn('user_id', ids).groupBy('user_id').select('user_id', knex.raw('count(*)::int as n'), knex.raw('max(created_at) as last')),
      knex('community_comments').where({ community_id: a.community.id }).whereIn('user_id', ids).groupBy('user_id').select('user_id', knex.raw('count(*)::int as n'), knex.raw('max(created_at) as last')),
      knex('community_warnings').where({ community_id: a.community.id }).whereIn('user_id', ids).groupBy('user_id').select('user_id', knex.raw('count(*)::int as n')),
    ]);
    for (const r of p) posts.set(r.user_id, { n: Number(r.n), last: r.last });
    for (const r of c) comments.set(r.user_id, { n: Number(r.n), last: r.last });
    for (const r of w) warnings.set(r.user_id, Number(r.n));
  }
  const latest = (...ds: Array<Date | string | null | undefined>) => {
    const times = ds.filter(Boolean).map((d) => new Date(d as any).getTime());
    return times.length ? new Date(Math.max(...times)).toISOString() : null;
  };
  return rows.map((m) => {
    const s = u.get(m.user_id);
    const out: Record<string, unknown> = {
      id: m.id,
      userId: m.user_id,
      role: m.role,
      isCreator: m.user_id === a.community.creator_id,
      joinedAt: iso(m.joined_at)!,
      user: s
        ? { id: s.id, username: s.username, slug: s.slug, firstName: s.firstName, lastName: s.lastName, bio: bios.get(s.id) ?? null, profileImageUrl: s.profileImageUrl, profileImageInfo: s.profileImageInfo ?? null }
        : { id: m.user_id, username: 'unknown' },
    };
    if (statsFor.has(m.user_id)) {
      out.restrictions = restrictions(m);
      out.stats = {
        postsCount: posts.get(m.user_id)?.n ?? 0,
        commentsCount: comments.get(m.user_id)?.n ?? 0,
        lastActive: latest(m.last_active_at, posts.get(m.user_id)?.last, comments.get(m.user_id)?.last),
        warningsCount: warnings.get(m.user_id) ?? 0,
      };
    }
    return out;
  });
}

export interface PostRow {
  id: number;
  community_id: number;
  user_id: number;
  type: string;
  content: string;
  mentions?: unknown;
  title: string | null;
  poll_options: string[] | null;
  event_title: string | null;
  event_date_time: Date | null;
  event_location: string | null;
  event_description: string | null;
  video_url: string | null;
  link_url: string | null;
  is_pinned: boolean;
  status: 'published' | 'pending' | 'rejected';
  likes_count: number;
  comments_count: number;
  created_at: Date;
}

/** Poll results for many posts: counts per option and the viewer's vote. */
export async function pollResults(knex: Knex, posts: Array<Pick<PostRow, 'id' | 'poll_options'>>, viewerId?: number) {
  const polls = posts.filter((p) => Array.isArray(p.poll_options));
  const out = new Map<number, { options: Array<{ index: number; text: string; votes: number }>; totalVotes: number; userVote: number | null }>();
  if (!polls.length) return out;
  const ids = polls.map((p) => p.id);
  const [counts, mine] = await Promise.all([
    knex('community_poll_votes').whereIn('post_id', ids).groupBy('post_id', 'option_index').select('post_id', 'option_index', knex.raw('count(*)::int as n')),
    viewerId ? knex('community_poll_votes').whereIn('post_id', ids).where({ user_id: viewerId }).select('post_id', 'option_index') : Promise.resolve([]),
  ]);
  for (const p of polls) {
    const options = p.poll_options!.map((text, index) => ({ index, text, votes: 0 }));
    out.set(p.id, { options, totalVotes: 0, userVote: null });
  }
  for (const c of counts) {
    const r = out.get(c.post_id)!;
    const o = r.options[c.option_index];
    if (o) {
      o.votes = Number(c.n);
      r.totalVotes += Number(c.n);
    }
  }
  for (const m of mine as Array<{ post_id: number; option_index: number }>) out.get(m.post_id)!.userVote = m.option_index;
  return out;
}

export async function posts(knex: Knex, accounts: AccountsApi, rows: PostRow[], a: Pick<Access, 'user' | 'rank' | 'community'>) {
  const viewerId = a.user?.id;
  const [u, polls, liked, ranks] = await Promise.all([
    users(accounts, rows.map((r) => r.user_id)),
    pollResults(knex, rows, viewerId),
    viewerId && rows.length
      ? knex('community_post_likes').where({ user_id: viewerId }).whereIn('post_id', rows.map((r) => r.id)).pluck('post_id')
      : Promise.resolve([] as number[]),
    ranksIn(knex, a.community, a.rank >= RANK.moderator ? rows.map((r) => r.user_id) : []),
  ]);
  const likedSet = new Set<number>(liked);
  return rows.map((p) => ({
    id: p.id,
    communityId: p.community_id,
    type: p.type,
    content: p.content,
    mentions: storedMentionList(p.mentions),
    title: p.title,
    pollOptions: p.poll_options,
    poll: polls.get(p.id) ?? null,
    eventTitle: p.event_title,
    eventDateTime: iso(p.event_date_time),
    eventLocation: p.event_location,
    eventDescription: p.event_description,
    videoUrl: p.video_url,
    linkUrl: p.link_url,
    isPinned: p.is_pinned,
    likesCount: p.likes_count,
    commentsCount: p.comments_count,
    isLiked: likedSet.has(p.id),
    status: p.status,
    createdAt: iso(p.created_at)!,
    user: u.get(p.user_id) ?? null,
    canDelete: mayDeleteContent(a, p.user_id, ranks.get(p.user_id) ?? RANK.none),
  }));
}

export { rankOf };
