/**
 * Live updates of insights (core `ctx.live`, GET /api/stream): `feed.new` to the people who follow
 * the author or the insight's museum, `post.commented` to an insight's author; and the count behind
 * the home feed's "N new insights" pill. The event only says that something may be new: the count
 * is read through the personalized feed itself, so accounts' privacy rule decides what is counted
 * (a member who may not see the author is told of nothing to see).
 */
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';
import { personalSource, readPage, readableRows, type ReadScope, type Source } from './posts.ts';
import type { Viewer } from './social.ts';

/**
 * The viewer's personalized feed: their own insights and those of followed people and museums
 * (accounts' and museums' SQL fragments, read inside the page statement). The people one follows
 * may always be read (private: followers; friends: either way); accounts' rule still applies
 * (blocks, mutes).
 */
export function personalFeedSource(knex: Knex, accounts: AccountsApi, museums: MuseumsApi | undefined, viewerId: number, scope: ReadScope): Source {
  return personalSource(
    knex,
    { users: knex.raw('select ?::int union all ?', [viewerId, accounts.sql.followingIds(viewerId)]), museums: museums ? museums.sql.followedMuseumIds(viewerId) : null },
    { scope },
  );
}

export const NEW_COUNT_MAX = 50;

export function registerLive(
  ctx: PluginContext,
  deps: { knex: Knex; accounts: () => AccountsApi; museums: () => MuseumsApi | undefined; scope: (viewer: Viewer) => ReadScope },
): void {
  const { knex } = deps;

  // to the followers of the author and of the museum who have a tab open now, in one statement (the
  // others would never read it: the home page asks for its count when its stream opens)
  ctx.events.on('insights.post.created', async ({ postId, userId, museumId }) => {
    const m = deps.museums();
    const people = deps.accounts().sql.followEdges().where('following_id', userId).clearSelect().select(knex.raw('follower_id as id'));
    const q = m && museumId ? knex.union([people, m.sql.followEdges().where('museum_id', museumId).clearSelect().select(knex.raw('user_id as id'))]) : people;
    // not across a block either way (a museum's followers include members the author blocked): the
    // hint would name a post they may not read; the count (new-count) applies the whole rule anyway
    const audience = knex.select('id').from(q.as('audience')).whereNot('id', userId).whereRaw(deps.accounts().sql.notBlocked(userId, 'audience.id'));
    await ctx.live.publishToOpen(audience, 'feed.new', { postId });
    // eight lanes by the author (an author's posts are told in order): in one lane, with the plugin's
    // other deferred work, this was most of what was left undone after a mixed load
  }, { afterAnswer: true, lane: (p) => `live${p.userId % 8}` });

  ctx.events.on('insights.comment.created', async ({ postId, commentId, userId, postAuthorId }) => {
    if (postAuthorId !== userId) await ctx.live.publishTo([postAuthorId], 'post.commented', { postId, commentId });
  }, { afterAnswer: true });

  ctx.routes.add<unknown, { since: string; sinceId: number }>({
    method: 'GET',
    path: '/api/feed/new-count',
    operationId: 'getFeedNewCount',
    summary: `How many insights of the personalized feed are newer than the one given (the newest the viewer has), at most ${NEW_COUNT_MAX}; privacy applied as in the feed`,
    auth: 'required',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['since', 'sinceId'],
        properties: { since: { type: 'string', format: 'date-time' }, sinceId: { type: 'integer', minimum: 0, maximum: 2147483647 } },
      },
      response: { type: 'object', additionalProperties: false, required: ['count'], properties: { count: { type: 'integer' } } },
    },
    async handler(c) {
      c.set('Cache-Control', 'no-store');
      const viewer = c.user!;
      const source = personalFeedSource(knex, deps.accounts(), deps.museums(), viewer.id, deps.scope(viewer));
      const page = await readPage(source, { limit: NEW_COUNT_MAX, cursor: null, visible: readableRows });
      const since = Date.parse(c.input.query.since);
      const { sinceId } = c.input.query;
      const newer = page.rows.filter((r) => {
        const t = new Date(r.created_at).getTime();
        return (t > since || (t === since && r.id > sinceId)) && r.user_id !== viewer.id;
      });
      return { count: newer.length };
    },
  });
}
