/**
 * Sample communities from seeds/communities/communities.json. Members are the sample members the
 * accounts seed adds first (plugins seed in dependency order): each community lists their
 * usernames, the first being its creator (an Ambassador). A username that does not exist is
 * replaced by the first existing users, so the samples also load on a database with other
 * members; with no users at all nothing is added. Idempotent: a community whose name exists is
 * skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../core/config.ts';
import type { PluginContext, SeedProgress } from '../../../core/plugin-api.ts';
import { sampleUserIds } from '../../../core/seed.ts';
import { seedThread, type SeedComment } from '../../../core/threads.ts';
import { AccountsService } from '../../accounts/public.ts';
import { THREADS } from './routes-posts.ts';
import { normalizeTags } from './util.ts';

interface SeedPost {
  author: number;
  type: string;
  content: string;
  title?: string;
  pollOptions?: string[];
  votes?: Array<number | null>;
  eventTitle?: string;
  eventDateTime?: string;
  eventLocation?: string;
  eventDescription?: string;
  videoUrl?: string;
  linkUrl?: string;
  pinned?: boolean;
  likes?: number[];
  comments?: SeedComment[];
}
interface SeedCommunity {
  name: string;
  description: string;
  location: string;
  type: string;
  membershipType: 'open' | 'private';
  tags: string[];
  rules: string;
  /** usernames; the first is the creator */
  members: string[];
  posts: SeedPost[];
}

export async function seedCommunities(ctx: PluginContext, progress: SeedProgress): Promise<void> {
  const knex = ctx.db;
  const file = path.join(ROOT, 'seeds', 'communities', 'communities.json');
  if (!fs.existsSync(file)) return;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { communities: SeedCommunity[] };
  progress.start(data.communities.length, 'communities');
  for (const [i, s] of data.communities.entries()) {
    const exists = await knex('communities').where({ name: s.name }).first('id');
    if (exists) {
      progress.tick();
      continue;
    }
    const members = await sampleUserIds(ctx.services.get(AccountsService), s.members, s.members.length);
    if (!members.length) {
      ctx.log.info('communities seed: no users yet, sample communities skipped');
      progress.tick(data.communities.length - i);
      return;
    }
    const who = (i: number) => members[i % members.length];
    await knex.transaction(async (trx) => {
      const [c] = await trx('communities')
        .insert({
          name: s.name,
          description: s.description,
          location: s.location,
          type: s.type,
          membership_type: s.membershipType,
          tags: JSON.stringify(normalizeTags(s.tags)),
          rules: s.rules,
          creator_id: members[0],
          member_count: members.length,
        })
        .returning('id');
      await trx('community_members').insert(members.map((u, i) => ({ community_id: c.id, user_id: u, role: i === 0 ? 'admin' : i === 1 && members.length > 2 ? 'moderator' : 'member' })));
      for (const p of s.posts) {
        const [post] = await trx('community_posts')
          .insert({
            community_id: c.id,
            user_id: who(p.author),
            type: p.type,
            content: p.content,
            title: p.title ?? null,
            poll_options: p.pollOptions ? JSON.stringify(p.pollOptions) : null,
            event_title: p.eventTitle ?? null,
            event_date_time: p.eventDateTime ?? null,
            event_location: p.eventLocation ?? null,
            event_description: p.eventDescription ?? null,
            video_url: p.videoUrl ?? null,
            link_url: p.linkUrl ?? null,
            is_pinned: Boolean(p.pinned),
            pinned_at: p.pinned ? trx.fn.now() : null,
          })
          .returning('id');
        await seedThread(trx, THREADS, { postId: post.id, members, likes: p.likes, comments: p.comments, columns: { community_id: c.id } });
        const voters = new Map<number, number>();
        (p.votes ?? []).forEach((opt, i) => {
          if (opt !== null && i < members.length) voters.set(members[i], opt);
        });
        if (voters.size) await trx('community_poll_votes').insert([...voters].map(([u, o]) => ({ post_id: post.id, user_id: u, option_index: o })));
      }
    });
    progress.tick();
  }
}
