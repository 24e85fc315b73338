/**
 * Sample members from seeds/accounts/users.json, so that a fresh install's communities, groups
 * and meetups (seeded after accounts: plugins seed in dependency order) have people in them.
 *
 * Nobody can sign in as a sample member: their password_hash is '!' + random characters
 * (unusablePasswordHash), which verifyPassword refuses for every password, with the same work as
 * a real check. An Admin may delete them like any account.
 *
 * Idempotent: a sample whose username or email is taken (by an earlier run or a real member) is
 * skipped, so a second run adds nothing and never touches real accounts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../core/config.ts';
import type { PluginContext, SeedProgress } from '../../../core/plugin-api.ts';
import { unusablePasswordHash } from './passwords.ts';
import { canonicalRole } from './roles.ts';
import { uniqueSlug } from './users.ts';

export interface SampleUser {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  bio?: string;
}

export const SAMPLE_USERS_FILE = path.join(ROOT, 'seeds', 'accounts', 'users.json');

export function readSampleUsers(file = SAMPLE_USERS_FILE): SampleUser[] {
  if (!fs.existsSync(file)) return [];
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { users?: SampleUser[] };
  return data.users ?? [];
}

/** Answers the usernames added by this run. */
export async function seedUsers(ctx: PluginContext, progress: SeedProgress, file = SAMPLE_USERS_FILE): Promise<string[]> {
  const knex = ctx.db;
  const users = readSampleUsers(file);
  progress.start(users.length, 'sample members');
  const added: string[] = [];
  for (const u of users) {
    try {
      const role = canonicalRole(u.role ?? 'Traveler');
      if (!role || !/^[A-Za-z0-9_.-]{3,30}$/.test(u.username) || !u.email?.includes('@')) {
        ctx.log.warn({ username: u.username }, 'sample member skipped: invalid username, email or role');
        continue;
      }
      if (await knex('users').where('username', u.username).orWhere('email', u.email).first('id')) continue;
      const [row] = await knex('users')
        .insert({
          username: u.username,
          email: u.email,
          first_name: (u.firstName ?? '').slice(0, 100),
          last_name: (u.lastName ?? '').slice(0, 100),
          bio: (u.bio ?? '').slice(0, 200),
          role,
          slug: await uniqueSlug(knex, 'users', u.username),
          password_hash: unusablePasswordHash(),
        })
        .onConflict()
        .ignore()
        .returning('id');
      if (!row) continue;
      added.push(u.username);
      await ctx.events.emit('accounts.user.registered', { userId: row.id });
    } finally {
      progress.tick();
    }
  }
  return added;
}
