/** This plugin's part of a member's data archive (issue 24): their insights with counts and media, their comments and likes. */
import path from 'node:path';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerInsightsExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('insights', async (userId, out) => {
    const posts = await knex('insights_posts').where({ user_id: userId }).orderBy('id');
    const items = [];
    for (const p of posts) {
      // every stored file the insight points at (video, poster, photos and their variants), byte for byte
      const urls: string[] = [p.video_url, p.poster_url, ...((p.images as any[]) ?? []).flatMap((i: any) => (typeof i === 'string' ? [i] : Object.values(i ?? {}).filter((v) => typeof v === 'string')))].filter(Boolean);
      const media: string[] = [];
      for (const u of urls) {
        const key = ctx.storage.keyFromUrl(u);
        if (!key) continue;
        const name = await out.file(`media/insights/${p.id}-${path.basename(key)}`, key);
        if (name) media.push(name);
      }
      // a photo insight's photos: the stored original of each (re-encoded, metadata stripped) with its alt text
      const photos: { file: string | null; alt: string; sensitive: boolean }[] = [];
      if (p.type === 'photo') {
        const rows = await knex('insights_photos').where({ post_id: p.id }).orderBy('position').select('storage_key', 'alt');
        for (const r of rows) {
          const name = media.find((m) => m.endsWith(path.basename(r.storage_key))) ?? (await out.file(`media/insights/${p.id}-${path.basename(r.storage_key)}`, r.storage_key));
          if (name && !media.includes(name)) media.push(name);
          photos.push({ file: name ?? null, alt: r.alt, sensitive: !!p.sensitive });
        }
      }
      items.push({
        id: p.id,
        ...(p.type === 'photo' ? { photos } : {}),
        type: p.type,
        content: p.content,
        tags: p.tags ?? [],
        museumId: p.museum_id,
        likesCount: p.likes_count,
        commentsCount: p.comments_count,
        createdAt: iso(p.created_at),
        media,
      });
    }
    out.json('insights.json', items, 'Your insights, with their like and comment counts and their media files (in media/insights/).');
    const comments = await knex('insights_comments').where({ user_id: userId }).orderBy('id').select('id', 'post_id', 'parent_id', 'content', 'created_at');
    out.json(
      'comments.json',
      comments.map((c: any) => ({ id: c.id, insightId: c.post_id, replyTo: c.parent_id, content: c.content, createdAt: iso(c.created_at) })),
      'Comments you wrote on insights.',
    );
    const likes = await knex('insights_likes').where({ user_id: userId }).orderBy('created_at').select('post_id', 'created_at');
    out.json('likes.json', likes.map((l: any) => ({ insightId: l.post_id, likedAt: iso(l.created_at) })), 'Insights you liked.');
  });
}
