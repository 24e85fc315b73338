/** This plugin's part of a member's data archive (issue 24): group memberships, posts and comments. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerGroupsExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('groups', async (userId, out) => {
    const memberships = await knex('group_members as m').join('groups as g', 'g.id', 'm.group_id').where('m.user_id', userId).orderBy('m.joined_at').select('g.id', 'g.name', 'm.role', 'm.joined_at');
    const posts = await knex('group_posts').where({ user_id: userId }).orderBy('id').select('id', 'group_id', 'type', 'content', 'likes_count', 'comments_count', 'created_at');
    const comments = await knex('group_comments').where({ user_id: userId }).orderBy('id').select('id', 'post_id', 'parent_id', 'content', 'created_at');
    out.json(
      'groups.json',
      {
        memberships: memberships.map((m: any) => ({ groupId: m.id, name: m.name, role: m.role, joinedAt: iso(m.joined_at) })),
        posts: posts.map((p: any) => ({ id: p.id, groupId: p.group_id, type: p.type, content: p.content, likesCount: p.likes_count, commentsCount: p.comments_count, createdAt: iso(p.created_at) })),
        comments: comments.map((c: any) => ({ id: c.id, postId: c.post_id, replyTo: c.parent_id, content: c.content, createdAt: iso(c.created_at) })),
      },
      'Groups you belong to, your posts and comments in them.',
    );
  });
}
