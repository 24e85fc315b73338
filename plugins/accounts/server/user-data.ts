/**
 * A member's data (issue 24): erasure that removes every plugin's rows and files (after a grace
 * period in which signing in cancels it), a downloadable archive of everything they put in, and
 * the scheduled purge of what is kept only for a while (sessions, throttles, tokens, archives).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import yazl from 'yazl';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { every } from '../../../core/jobs.ts';
import { NotificationsService } from '../../notifications/public.ts';
import type { ArchiveWriter, EraseContext, FollowImportResult, UserDataApi } from '../public.ts';
import { ensureFollow, removeUser } from './follows.ts';
import { readPreferences, tasteOf } from './service.ts';

export const ERASE_JOB = 'accounts.eraseAccount';
export const EXPORT_JOB = 'accounts.buildExport';
export const RETENTION_JOB = 'accounts.retention';
const DAY_MS = 24 * 3600_000;
/** How long a ready archive may be downloaded, by default (config accounts.retention.archiveDays). */
export const EXPORT_VALID_DAYS = 7;
/** One archive per member per this many hours. */
export const EXPORT_EVERY_HOURS = 24;
export const EXPORT_TOO_SOON = 'You can download your data once a day. Please try again later.';

type Eraser = { plugin: string; fn: (userId: number, e: EraseContext) => Promise<void> };
type Exporter = { plugin: string; fn: (userId: number, out: ArchiveWriter) => Promise<void> };
type Importer = (userId: number, refs: string[]) => Promise<FollowImportResult>;
/** Rows read from one imported file. */
export const IMPORT_MAX_ROWS = 5000;

export function createUserData(ctx: PluginContext) {
  const knex = ctx.db;
  const erasers: Eraser[] = [];
  const exporters: Exporter[] = [];
  const graceDays: number = ctx.config.deletionGraceDays ?? 14;
  // retention windows (config accounts.retention; PRIVACY.md states the defaults)
  const retention = {
    emailTokenDays: Number(ctx.config.retention?.emailTokenDays ?? 1),
    archiveDays: Number(ctx.config.retention?.archiveDays ?? EXPORT_VALID_DAYS),
    archiveRecordDays: Number(ctx.config.retention?.archiveRecordDays ?? 30),
  };

  const importers = new Map<string, Importer>();

  const registry: UserDataApi = {
    onErase: (plugin, fn) => erasers.push({ plugin, fn }),
    onExport: (plugin, fn) => exporters.push({ plugin, fn }),
    onFollowImport: (kind, fn) => void importers.set(kind, fn),
  };

  /**
   * Follows again from a CSV: Curio's follows.csv (username column) or museum-follows.csv (slug
   * column), or a Mastodon-style list whose first column holds handles: `@user`, `user@host`,
   * `https://…/profile/<slug>` for members, `museum:<slug>` or `https://…/museums/<slug>` for
   * museums. Private profiles get a follow request; blocks either way are refused; already followed
   * ones are counted, never unfollowed.
   */
  async function importFollows(userId: number, text: string) {
    const rows = parseCsv(text).slice(0, IMPORT_MAX_ROWS + 1);
    const members: string[] = [];
    const museums: string[] = [];
    let col = 0;
    let kind: 'member' | 'museum' | null = null;
    const head = (rows[0] ?? []).map((c) => c.trim().toLowerCase());
    if (head.includes('museum_id')) {
      kind = 'museum';
      col = head.indexOf('slug') >= 0 ? head.indexOf('slug') : head.indexOf('museum_id');
      rows.shift();
    } else if (head.includes('username')) {
      kind = 'member';
      col = head.indexOf('username');
      rows.shift();
    } else if (head[0] === 'account address' || head[0] === 'handle') rows.shift();
    for (const r of rows) {
      const cell = (r[col] ?? '').trim();
      if (!cell) continue;
      const museum = /^museum:(.+)$/i.exec(cell) ?? /\/museums\/([^/?#]+)/.exec(cell);
      const profile = /\/profile\/([^/?#]+)/.exec(cell);
      if (kind === 'museum') museums.push(cell);
      else if (museum) museums.push(decodeURIComponent(museum[1]));
      else if (profile) members.push(decodeURIComponent(profile[1]));
      else members.push(cell.replace(/^@/, '').split('@')[0]);
    }
    const result: FollowImportResult = { followed: 0, requested: 0, already: 0, refused: 0, notFound: [] };
    for (const handle of [...new Set(members)]) {
      const u = await knex('users').where('username', handle).orWhere('slug', handle.toLowerCase()).first('id');
      if (!u) {
        result.notFound.push(handle);
        continue;
      }
      if (u.id === userId) continue;
      const r = await ensureFollow(knex, userId, u.id);
      if (r === 'followed') {
        result.followed++;
        await ctx.events.emit('accounts.user.followed', { followerId: userId, followingId: u.id, following: true });
      } else if (r === 'requested') result.requested++;
      else if (r === 'already') result.already++;
      else if (r === 'blocked') result.refused++;
      else result.notFound.push(handle); // blocked by them: as if absent
    }
    const m = importers.get('museum');
    if (museums.length) {
      if (!m) result.notFound.push(...museums);
      else {
        const r = await m(userId, [...new Set(museums)]);
        result.followed += r.followed;
        result.already += r.already;
        result.refused += r.refused;
        result.notFound.push(...r.notFound);
      }
    }
    result.notFound = result.notFound.slice(0, 100);
    return result;
  }

  /**
   * Deletes a member now: plugins remove what is theirs (accounts.user.deleting), then, in one
   * transaction, the erasers run and the user row goes (cascading to what references it), then the
   * profile photo. Answers what was done (the deletion job's logged result), or null when absent.
   */
  async function eraseNow(userId: number): Promise<{ userId: number; erasers: string[]; photoDeleted: boolean } | null> {
    const exists = await knex('users').where({ id: userId }).first('id');
    if (!exists) return null;
    await ctx.jobs.cancel(`accounts.erase:${userId}`);
    await ctx.events.emit('accounts.user.deleting', { userId });
    // Archives are files of theirs too.
    const archives = (await knex('accounts_exports').where({ user_id: userId }).whereNotNull('storage_key').pluck('storage_key')) as string[];
    const row = await removeUser(knex, userId, async (trx) => {
      let locked = false;
      const e: EraseContext = {
        trx,
        lockUser: async () => {
          if (locked) return;
          await trx.raw('select id from users where id = ? for update', [userId]);
          locked = true;
        },
      };
      for (const x of erasers) await x.fn(userId, e);
    });
    if (!row) return null;
    let photoDeleted = false;
    const key = row.profile_image_url ? ctx.storage.keyFromUrl(row.profile_image_url) : null;
    if (key) {
      await ctx.storage.delete(key).then(
        () => (photoDeleted = true),
        (err) => ctx.log.warn({ err, key }, 'could not delete a profile photo'),
      );
    }
    for (const k of archives) await ctx.storage.delete(k).catch((err) => ctx.log.warn({ err, key: k }, 'could not delete a data archive'));
    await ctx.events.emit('accounts.user.deleted', { userId });
    const result = { userId, erasers: erasers.map((x) => x.plugin), photoDeleted };
    ctx.log.info({ erased: result }, 'account deleted');
    return result;
  }

  ctx.jobs.define(ERASE_JOB, async (payload: { userId: number }, h) => {
    const u = await knex('users').where({ id: payload.userId }).first('id', 'deletion_requested_at');
    if (!u) return { userId: payload.userId, skipped: 'already deleted' };
    if (!u.deletion_requested_at) return { userId: payload.userId, skipped: 'cancelled' };
    const r = await eraseNow(payload.userId);
    h.log.info({ result: r }, 'scheduled account deletion done');
    return r;
  });

  /** The member's own request: at once when the grace period is 0, otherwise at its end. */
  async function requestDeletion(userId: number): Promise<{ eraseAt: Date | null }> {
    if (graceDays <= 0) {
      await eraseNow(userId);
      return { eraseAt: null };
    }
    const eraseAt = new Date(ctx.jobs.now().getTime() + graceDays * DAY_MS);
    await knex.transaction(async (trx) => {
      const n = await trx('users').where({ id: userId }).update({ deletion_requested_at: trx.fn.now(), deletion_scheduled_for: eraseAt });
      if (!n) throw new HttpError(401, 'Authentication required');
      await trx('user_sessions').where({ user_id: userId }).del();
      await ctx.jobs.enqueue(ERASE_JOB, { userId }, { uniqueKey: `accounts.erase:${userId}`, runAt: eraseAt, db: trx, maxAttempts: 5 });
    });
    await ctx.events.emit('accounts.deletion.requested', { userId, eraseAt: eraseAt.toISOString() });
    // a confirmed address is told when, and how to keep the account
    const u = await knex('users').where({ id: userId }).first('email', 'email_verified_at', 'first_name', 'locale');
    if (u?.email && u.email_verified_at) {
      const fr = u.locale === 'fr';
      const day = eraseAt.toISOString().slice(0, 10);
      const url = ctx.mail.link('/auth');
      const subject = fr ? 'Suppression de votre compte Curio' : 'Your Curio account will be deleted';
      const text = fr
        ? `Bonjour ${u.first_name},\n\nVous avez demandé la suppression de votre compte Curio. Il sera effacé définitivement le ${day}. Pour le garder, reconnectez-vous avant cette date : ${url}\n`
        : `Hello ${u.first_name},\n\nYou asked for your Curio account to be deleted. It will be erased for good on ${day}. To keep it, sign in before then: ${url}\n`;
      await ctx.mail.send(`accounts.deletion:${userId}:${eraseAt.getTime()}`, { to: u.email, subject, text, html: `<p>${esc(text).replace(/\n\n/g, '</p><p>')}</p>` });
    }
    return { eraseAt };
  }

  /** Signing in during the grace period keeps the account. Answers whether a deletion was cancelled. */
  async function cancelDeletion(userId: number): Promise<boolean> {
    return knex.transaction(async (trx) => {
      const rows = await trx('users').where({ id: userId }).whereNotNull('deletion_requested_at').update({ deletion_requested_at: null, deletion_scheduled_for: null }).returning('id');
      if (!rows.length) return false;
      await ctx.jobs.cancel(`accounts.erase:${userId}`, trx);
      ctx.log.info({ userId }, 'account deletion cancelled by signing in');
      return true;
    });
  }

  // ---------------------------------------------------------------- archive

  /** Queues an archive; one per member per EXPORT_EVERY_HOURS, exact under concurrency (the user row is locked). */
  async function requestExport(userId: number) {
    const row = await knex.transaction(async (trx) => {
      await trx.raw('select id from users where id = ? for update', [userId]);
      const recent = await trx('accounts_exports')
        .where({ user_id: userId })
        .whereNot('status', 'failed')
        .where('created_at', '>', new Date(ctx.jobs.now().getTime() - EXPORT_EVERY_HOURS * 3600_000))
        .first('id');
      if (recent) throw new HttpError(429, EXPORT_TOO_SOON);
      const [x] = await trx('accounts_exports').insert({ user_id: userId, created_at: ctx.jobs.now() }).returning('*');
      const job = await ctx.jobs.enqueue(EXPORT_JOB, { exportId: x.id }, { db: trx, maxAttempts: 2 });
      await trx('accounts_exports').where({ id: x.id }).update({ job_id: job.id });
      return { ...x, job_id: job.id };
    });
    return describeExport(row);
  }

  async function describeExport(r: any) {
    let progress: { done: number; total: number } | null = null;
    if ((r.status === 'queued' || r.status === 'running') && r.job_id) progress = (await ctx.jobs.get(r.job_id))?.progress ?? null;
    const expired = r.status === 'ready' && r.expires_at && new Date(r.expires_at) <= ctx.jobs.now();
    return {
      id: Number(r.id),
      status: expired ? 'expired' : r.status,
      createdAt: new Date(r.created_at).toISOString(),
      readyAt: r.ready_at ? new Date(r.ready_at).toISOString() : null,
      expiresAt: r.expires_at ? new Date(r.expires_at).toISOString() : null,
      size: r.size === null || r.size === undefined ? null : Number(r.size),
      progress,
      downloadUrl: r.status === 'ready' && !expired ? `/api/user/exports/${r.id}/download` : null,
    };
  }

  async function listExports(userId: number) {
    const rows = await knex('accounts_exports').where({ user_id: userId }).orderBy('id', 'desc').limit(10);
    const items = [];
    for (const r of rows) items.push(await describeExport(r));
    const last = rows.find((r: any) => r.status !== 'failed');
    const nextAllowedAt = last ? new Date(new Date(last.created_at).getTime() + EXPORT_EVERY_HOURS * 3600_000) : null;
    return { items, nextAllowedAt: nextAllowedAt && nextAllowedAt > ctx.jobs.now() ? nextAllowedAt.toISOString() : null };
  }

  /** The archive's file for its owner (404 for anyone else, and once expired). */
  async function openExport(userId: number, exportId: number) {
    const r = await knex('accounts_exports').where({ id: exportId, user_id: userId, status: 'ready' }).first();
    if (!r || !r.storage_key || (r.expires_at && new Date(r.expires_at) <= ctx.jobs.now())) throw new HttpError(404, 'Archive not found');
    return { stream: await ctx.storage.open(r.storage_key), size: Number(r.size), name: `curio-data-${new Date(r.created_at).toISOString().slice(0, 10)}.zip` };
  }

  ctx.jobs.define(EXPORT_JOB, async (payload: { exportId: number }, h) => {
    const x = await knex('accounts_exports').where({ id: payload.exportId }).first();
    if (!x) return { skipped: 'gone' };
    await knex('accounts_exports').where({ id: x.id }).update({ status: 'running' });
    try {
      const built = await buildArchive(x.user_id, (done, total) => h.progress(done, total));
      const now = ctx.jobs.now();
      const expiresAt = new Date(now.getTime() + retention.archiveDays * DAY_MS);
      await knex('accounts_exports').where({ id: x.id }).update({ status: 'ready', storage_key: built.key, size: built.size, files: built.files, ready_at: now, expires_at: expiresAt });
      await announce(x.user_id, x.id, expiresAt);
      return { exportId: x.id, files: built.files, size: built.size };
    } catch (err) {
      await knex('accounts_exports').where({ id: x.id }).update({ status: 'failed' });
      throw err;
    }
  });

  async function announce(userId: number, exportId: number, expiresAt: Date) {
    const link = '/profile?settings=data';
    await ctx.services.maybe(NotificationsService)?.notify([userId], {
      type: 'admin',
      title: 'Your data is ready',
      message: `Your Curio archive is ready to download until ${expiresAt.toISOString().slice(0, 10)}.`,
      link,
      template: 'accounts:notify.exportReady',
      params: { date: expiresAt.toISOString().slice(0, 10) },
      dedupeKey: `accounts.export:${exportId}`,
    });
    const u = await knex('users').where({ id: userId }).first('email', 'email_verified_at', 'first_name', 'locale');
    if (u?.email && u.email_verified_at) {
      const fr = u.locale === 'fr';
      const url = ctx.mail.link(link);
      const subject = fr ? 'Vos données Curio sont prêtes' : 'Your Curio data is ready';
      const text = fr
        ? `Bonjour ${u.first_name},\n\nL'archive de vos données est prête. Connectez-vous pour la télécharger (jusqu'au ${expiresAt.toISOString().slice(0, 10)}) : ${url}\n`
        : `Hello ${u.first_name},\n\nYour data archive is ready. Sign in to download it (until ${expiresAt.toISOString().slice(0, 10)}): ${url}\n`;
      await ctx.mail.send(`accounts.export:${exportId}`, { to: u.email, subject, text, html: `<p>${esc(text).replace(/\n\n/g, '</p><p>').replace(esc(url), `<a href="${esc(url)}">${esc(url)}</a>`)}</p>` });
    }
    await ctx.events.emit('accounts.export.ready', { userId, exportId, expiresAt: expiresAt.toISOString() });
  }

  /** Builds the ZIP into a temporary file (entry by entry: never whole in memory), then stores it. */
  async function buildArchive(userId: number, progress: (done: number, total: number) => Promise<void>) {
    const zip = new yazl.ZipFile();
    const tmp = path.join(os.tmpdir(), `curio-export-${crypto.randomBytes(8).toString('hex')}.zip`);
    const out = fs.createWriteStream(tmp);
    const written = new Promise<void>((resolve, reject) => {
      out.on('close', resolve);
      out.on('error', reject);
      zip.outputStream.on('error', reject);
    });
    zip.outputStream.pipe(out);
    const index: Array<{ name: string; about: string }> = [];
    const names = new Set<string>();
    const unique = (name: string) => {
      let n = name.replace(/^\/+/, '').replace(/\.\.+/g, '.');
      for (let i = 2; names.has(n); i++) n = name.replace(/(\.[^./]+)?$/, `-${i}$1`);
      names.add(n);
      return n;
    };
    const writer: ArchiveWriter = {
      json(name, data, about) {
        const n = unique(name);
        zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2) + '\n'), n);
        index.push({ name: n, about });
      },
      csv(name, header, rows, about) {
        const n = unique(name);
        const cell = (v: unknown) => {
          const s = v === null || v === undefined ? '' : String(v);
          return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
        };
        zip.addBuffer(Buffer.from([header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n'), n);
        index.push({ name: n, about });
      },
      async file(name, storageKey) {
        let stream: NodeJS.ReadableStream;
        try {
          stream = await ctx.storage.open(storageKey);
        } catch {
          return null;
        }
        const n = unique(name);
        zip.addReadStream(stream as any, n);
        return n;
      },
    };
    try {
      const total = exporters.length + 1;
      await progress(0, total);
      await writeAccountsPart(userId, writer);
      await progress(1, total);
      let done = 1;
      for (const x of exporters) {
        await x.fn(userId, writer);
        await progress(++done, total);
      }
      zip.addBuffer(Buffer.from(readme(index)), 'README.html');
      zip.end();
      await written;
      const size = (await fsp.stat(tmp)).size;
      const key = `private/exports/${crypto.randomBytes(16).toString('hex')}.zip`;
      await ctx.storage.put(key, { path: tmp }, 'application/zip');
      return { key, size, files: names.size + 1 };
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  /** accounts' own part: profile, settings, follows, followers, sessions, blocks and mutes, avatar. */
  async function writeAccountsPart(userId: number, out: ArchiveWriter) {
    const u = await knex('users').where({ id: userId }).first();
    if (!u) throw new Error('user gone');
    let avatar: string | null = null;
    const avatarKey = u.profile_image_url ? ctx.storage.keyFromUrl(u.profile_image_url) : null;
    if (avatarKey) avatar = await out.file(`media/avatar${path.extname(avatarKey)}`, avatarKey);
    out.json(
      'profile.json',
      {
        id: u.id,
        username: u.username,
        slug: u.slug,
        email: u.email,
        emailVerified: Boolean(u.email_verified_at),
        firstName: u.first_name,
        lastName: u.last_name,
        bio: u.bio ?? '',
        role: u.role,
        profileImage: avatar,
        followersCount: u.followers_count,
        followingCount: u.following_count,
        createdAt: iso(u.created_at),
        lastActiveAt: iso(u.last_active_at),
      },
      'Your profile as others see it, and your email address.',
    );
    out.json(
      'settings.json',
      {
        preferences: await readPreferences(knex, userId),
        locale: u.locale ?? null,
        timeZone: u.time_zone ?? null,
        // onboarding (issue 21): what recommendations read
        interests: u.interests ?? [],
        home: tasteOf(u).home,
        onboarding: u.onboarding_status ?? null,
      },
      'Your privacy and notification settings, language and time zone, interests and home city.',
    );
    const handle = (r: any) => [r.username, r.slug, `${ctx.mail.publicOrigin()}/profile/${r.slug}`];
    const following = await knex('user_follows as f').join('users as u', 'u.id', 'f.following_id').where('f.follower_id', userId).orderBy('f.created_at').select('u.username', 'u.slug', 'f.created_at');
    out.csv('follows.csv', ['username', 'slug', 'profile', 'since'], following.map((r: any) => [...handle(r), iso(r.created_at)]), 'Members you follow (this file can be imported to follow them again).');
    const followers = await knex('user_follows as f').join('users as u', 'u.id', 'f.follower_id').where('f.following_id', userId).orderBy('f.created_at').select('u.username', 'u.slug', 'f.created_at');
    out.csv('followers.csv', ['username', 'slug', 'profile', 'since'], followers.map((r: any) => [...handle(r), iso(r.created_at)]), 'Members who follow you.');
    const blocks = await knex('user_blocks as b').join('users as u', 'u.id', 'b.blocked_id').where('b.blocker_id', userId).select('u.username', 'b.created_at');
    const mutes = await knex('user_mutes as m').join('users as u', 'u.id', 'm.muted_id').where('m.muter_id', userId).select('u.username', 'm.expires_at', 'm.notifications');
    out.json(
      'blocks-and-mutes.json',
      { blocked: blocks.map((r: any) => ({ username: r.username, since: iso(r.created_at) })), muted: mutes.map((r: any) => ({ username: r.username, until: iso(r.expires_at), notifications: r.notifications })) },
      'Members you blocked or muted.',
    );
    const sessions = await knex('user_sessions').where({ user_id: userId }).orderBy('created_at', 'desc').select('created_at', 'last_activity', 'expires_at', 'user_agent', 'ip', 'remember_me');
    out.json(
      'sessions.json',
      sessions.map((s: any) => ({ createdAt: iso(s.created_at), lastActivity: iso(s.last_activity), expiresAt: iso(s.expires_at), device: s.user_agent, ip: s.ip, rememberMe: s.remember_me })),
      'Where you are signed in.',
    );
  }

  // ---------------------------------------------------------------- retention

  /**
   * What is kept only for a while goes when its time is past (PRIVACY.md): expired sessions,
   * throttle counters whose window ended, used or expired email tokens a day after, archives past
   * their 7 days (their files too).
   */
  async function purge(now: Date) {
    const sessions = await knex('user_sessions').where('expires_at', '<=', now).del().returning('id');
    const loginLimits = await knex('accounts_login_limits').where('expire', '<=', now.getTime()).del().returning('key');
    // recovery counters are hourly windows
    const recoveryLimits = await knex('accounts_recovery_limits').where('window_start', '<=', new Date(now.getTime() - 3600_000)).del().returning('key');
    const tokens = await knex('accounts_email_tokens').where('expires_at', '<=', new Date(now.getTime() - retention.emailTokenDays * DAY_MS)).del().returning('id');
    const expired = await knex('accounts_exports').where('expires_at', '<=', now).whereNotNull('storage_key').select('id', 'storage_key');
    for (const x of expired) {
      await ctx.storage.delete(x.storage_key).catch((err) => ctx.log.warn({ err, key: x.storage_key }, 'could not delete an expired archive'));
      await knex('accounts_exports').where({ id: x.id }).update({ status: 'expired', storage_key: null });
    }
    // archive rows (no file) are kept 30 days (by default): the once-a-day rule reads them
    const oldExports = await knex('accounts_exports').where('created_at', '<=', new Date(now.getTime() - retention.archiveRecordDays * DAY_MS)).whereNull('storage_key').del().returning('id');
    return { sessions: sessions.length, loginLimits: loginLimits.length, recoveryLimits: recoveryLimits.length, tokens: tokens.length, archives: expired.length, archiveRows: oldExports.length };
  }
  // Archive files no row points at any more (a delete that failed): the storage sweep removes them.
  ctx.uploads.ownFiles({
    prefixes: ['private/exports'],
    referenced: async (keys) => (await knex('accounts_exports').whereIn('storage_key', keys).pluck('storage_key')) as string[],
  });
  ctx.jobs.repeat(RETENTION_JOB, every(3600_000), async (_p, h) => {
    const r = await purge(h.now);
    h.log.info({ purged: r }, 'accounts retention');
    return r;
  });

  return { registry, importFollows, eraseNow, requestDeletion, cancelDeletion, requestExport, listExports, openExport, purge };
}

export type UserDataService = ReturnType<typeof createUserData>;

/** RFC 4180 CSV (quoted cells, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

function iso(d: any): string | null {
  return d ? new Date(d).toISOString() : null;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** README.html: what each file holds, with links that open them (the browser shows JSON, CSV and media). */
function readme(index: Array<{ name: string; about: string }>): string {
  const rows = index.map((f) => `<tr><td><a href="${esc(f.name)}">${esc(f.name)}</a></td><td>${esc(f.about)}</td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your Curio data</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}</style>
</head><body>
<h1>Your Curio data</h1>
<p>This archive holds everything you put into Curio, as of ${esc(new Date().toISOString())}. JSON files open in any browser or text editor;
CSV files in a spreadsheet; the <code>media/</code> folder holds your photos and videos exactly as you uploaded them.</p>
<table><thead><tr><th>File</th><th>What it holds</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
