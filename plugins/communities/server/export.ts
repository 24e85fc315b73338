/** This plugin's part of a member's data archive (issue 24): memberships, posts, comments, poll votes. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerCommunitiesExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('communities', async (userId, out) => {
    const memberships = await knex('community_members as m').join('communities as c', 'c.id', 'm.community_id').where('m.user_id', userId).orderBy('m.joined_at').select('c.id', 'c.name', 'm.role', 'm.joined_at', 'c.creator_id');
    const posts = await knex('community_posts').where({ user_id: userId }).orderBy('id');
    const comments = await knex('community_comments').where({ user_id: userId }).orderBy('id').select('id', 'post_id', 'community_id', 'parent_id', 'content', 'created_at');
    const votes = await knex('community_poll_votes').where({ user_id: userId }).orderBy('created_at').select('post_id', 'option_index', 'created_at');
    out.json(
      'communities.json',
      {
        memberships: memberships.map((m: any) => ({ communityId: m.id, name: m.name, role: m.role, creator: m.creator_id === userId, joinedAt: iso(m.joined_at) })),
        posts: posts.map((p: any) => ({
          id: p.id,
          communityId: p.community_id,
          type: p.type,
          title: p.title,
          content: p.content,
          pollOptions: p.poll_options,
          event: p.event_title ? { title: p.event_title, dateTime: iso(p.event_date_time), location: p.event_location, description: p.event_description } : null,
          videoUrl: p.video_url,
          linkUrl: p.link_url,
          status: p.status,
          likesCount: p.likes_count,
          commentsCount: p.comments_count,
          createdAt: iso(p.created_at),
        })),
        comments: comments.map((c: any) => ({ id: c.id, postId: c.post_id, communityId: c.community_id, replyTo: c.parent_id, content: c.content, createdAt: iso(c.created_at) })),
        pollVotes: votes.map((v: any) => ({ postId: v.post_id, optionIndex: v.option_index, votedAt: iso(v.created_at) })),
      },
      'Communities you belong to, your posts, comments and poll votes in them.',
    );
  });
}
