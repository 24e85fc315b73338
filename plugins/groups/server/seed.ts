/**
 * Sample groups from seeds/groups/groups.json. Members are the sample members the accounts seed
 * adds first (plugins seed in dependency order): each group lists their usernames, the first being
 * its creator and admin. A username that does not exist is replaced by the first existing users;
 * with no users at all nothing is added. Idempotent: a group whose name exists is skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../core/config.ts';
import type { PluginContext, SeedProgress } from '../../../core/plugin-api.ts';
import { sampleUserIds } from '../../../core/seed.ts';
import { seedThread, type SeedComment } from '../../../core/threads.ts';
import { AccountsService } from '../../accounts/public.ts';
import { THREADS } from './routes.ts';
import { normalizeTags } from './util.ts';

interface SeedGroup {
  name: string;
  description: string;
  location: string;
  isPrivate: boolean;
  tags: string[];
  /** usernames; the first is the creator */
  members: string[];
  posts: Array<{ author: number; content: string; likes?: number[]; comments?: SeedComment[] }>;
}

export async function seedGroups(ctx: PluginContext, progress: SeedProgress): Promise<void> {
  const knex = ctx.db;
  const file = path.join(ROOT, 'seeds', 'groups', 'groups.json');
  if (!fs.existsSync(file)) return;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { groups: SeedGroup[] };
  progress.start(data.groups.length, 'groups');
  for (const [i, s] of data.groups.entries()) {
    if (await knex('groups').where({ name: s.name }).first('id')) {
      progress.tick();
      continue;
    }
    const members = await sampleUserIds(ctx.services.get(AccountsService), s.members, s.members.length);
    if (!members.length) {
      ctx.log.info('groups seed: no users yet, sample groups skipped');
      progress.tick(data.groups.length - i);
      return;
    }
    const who = (i: number) => members[i % members.length];
    await knex.transaction(async (trx) => {
      const [g] = await trx('groups')
        .insert({ name: s.name, description: s.description, location: s.location, is_private: s.isPrivate, tags: JSON.stringify(normalizeTags(s.tags)), creator_id: members[0], member_count: members.length })
        .returning('id');
      await trx('group_members').insert(members.map((u, i) => ({ group_id: g.id, user_id: u, role: i === 0 ? 'admin' : 'member' })));
      for (const p of s.posts) {
        const [post] = await trx('group_posts').insert({ group_id: g.id, user_id: who(p.author), content: p.content }).returning('id');
        await seedThread(trx, THREADS, { postId: post.id, members, likes: p.likes, comments: p.comments });
      }
    });
    progress.tick();
  }
}
