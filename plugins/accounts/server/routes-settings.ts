import sharp from 'sharp';
import { HttpError } from '../../../core/errors.ts';
import type { UserPreferences } from '../public.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { ownUserColumns, readPreferences, toOwnUser, writePreferences } from './service.ts';
import { onProfilePublic } from './routes-safety.ts';
import { sessionId, startSession } from './sessions.ts';
import { uniqueSlug } from './users.ts';
import { rememberRename } from './slug-history.ts';
import { LoginThrottle } from './throttle.ts';
import type { RouteDeps } from './deps.ts';

export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_IMAGE_SIZE = 400;
export const IMAGE_TOO_LARGE = 'File too large: the profile photo must be at most 5MB.';
export const IMAGE_INVALID = 'Please upload a JPG, PNG or GIF image.';

interface ProfileBody {
  firstName?: string;
  lastName?: string;
  username?: string;
  bio?: string;
  email?: string;
}

export function addSettingsRoutes({ ctx, knex, throttle, userData }: RouteDeps): void {
  ctx.routes.add<unknown, unknown, ProfileBody>({
    method: 'PUT',
    path: '/api/user/profile',
    operationId: 'updateProfile',
    summary: "Update one's own profile (names, username, bio, email); role and id are refused",
    auth: 'required',
    schema: { body: { $ref: 'accounts/ProfileUpdateBody' }, response: { $ref: 'accounts/User' } },
    async handler(c) {
      const b = c.input.body;
      const me = c.user!.id;
      const changes: Record<string, unknown> = {};
      if (b.firstName !== undefined) changes.first_name = b.firstName.trim();
      if (b.lastName !== undefined) changes.last_name = b.lastName.trim();
      if (b.bio !== undefined) changes.bio = b.bio.trim();
      if (b.username !== undefined) {
        const username = b.username.trim();
        if (!username) throw new HttpError(400, 'Please enter a username.', { errors: [{ path: '/username', message: 'Please enter a username.' }] });
        changes.username = username;
      }
      if (b.email !== undefined) changes.email = b.email.trim();

      // with the avatar's info (profileImageInfo), answered when nothing changes
      const current = await knex('users').where({ id: me }).first(...ownUserColumns(knex));
      if (!current) throw new HttpError(401, 'Authentication required');
      if (changes.username !== undefined || changes.email !== undefined) {
        const clash = await knex('users')
          .whereNot('id', me)
          .andWhere((q) => {
            if (changes.username !== undefined) q.orWhere('username', changes.username as string);
            if (changes.email !== undefined) q.orWhere('email', changes.email as string);
          })
          .first('email', 'username');
        if (clash) {
          const field = changes.email !== undefined && String(clash.email).toLowerCase() === String(changes.email).toLowerCase() ? 'email' : 'username';
          const msg = field === 'email' ? 'An account with this email already exists' : 'This username is already taken';
          throw new HttpError(409, msg, { errors: [{ path: `/${field}`, message: msg }] });
        }
      }
      if (changes.username !== undefined && String(changes.username).toLowerCase() !== String(current.username).toLowerCase()) {
        changes.slug = await uniqueSlug(knex, 'users', String(changes.username), me);
      }
      // a new address must be confirmed again (routes-recovery.ts sends the link and tells the old one)
      const previousEmail = changes.email !== undefined && String(changes.email).toLowerCase() !== String(current.email).toLowerCase() ? String(current.email) : undefined;
      if (previousEmail) changes.email_verified_at = null;
      let row = current;
      if (Object.keys(changes).length) {
        try {
          // the rename and the old slug's history together (old profile links keep working)
          row = await knex.transaction(async (trx) => {
            const [updated] = await trx('users')
              .where({ id: me })
              .update({ ...changes, updated_at: trx.fn.now() })
              .returning(ownUserColumns(trx));
            if (changes.slug !== undefined || changes.username !== undefined) {
              await rememberRename(trx, me, { slug: current.slug, username: current.username }, { slug: updated.slug, username: updated.username });
            }
            return updated;
          });
        } catch (e: any) {
          if (e?.code === '23505') {
            const c2 = String(e.constraint ?? e.detail ?? '');
            const msg = c2.includes('email') ? 'An account with this email already exists' : c2.includes('username') ? 'This username is already taken' : 'This username is already taken';
            throw new HttpError(409, msg);
          }
          throw e;
        }
        const fields = Object.keys(b).filter((k) => (b as any)[k] !== undefined);
        await ctx.events.emit('accounts.user.updated', { userId: me, fields, ...(previousEmail ? { previousEmail } : {}) });
      }
      return toOwnUser(row);
    },
  });

  ctx.routes.add<unknown, unknown, { currentPassword: string; newPassword: string }>({
    method: 'PUT',
    path: '/api/user/password',
    operationId: 'changePassword',
    summary: 'Change the password (the current one is required); every other session ends',
    auth: 'required',
    schema: { body: { $ref: 'accounts/PasswordChangeBody' }, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const { currentPassword, newPassword } = c.input.body;
      const row = await knex('users').where({ id: c.user!.id }).first();
      if (!row) throw new HttpError(401, 'Authentication required');
      // Guessing the current password from a stolen session is throttled like sign-in.
      const key = LoginThrottle.accountKey(row.email);
      const ip = c.ip || 'unknown';
      // The point is taken before the check, so racing guesses cannot outnumber the limit.
      const attempt = await throttle.attempt(c, key, ip, true);
      let ok = false;
      try {
        ok = await verifyPassword(row.password_hash, currentPassword);
      } finally {
        await (ok ? attempt.succeeded() : attempt.failed());
      }
      if (!ok) {
        throw new HttpError(400, 'Current password is incorrect.', { errors: [{ path: '/currentPassword', message: 'Current password is incorrect.' }] });
      }
      const problem = passwordProblem(newPassword, { username: row.username, email: row.email });
      if (problem) throw new HttpError(400, problem, { errors: [{ path: '/newPassword', message: problem }] });
      if (currentPassword === newPassword) {
        const m = 'The new password must be different from the current one.';
        throw new HttpError(400, m, { errors: [{ path: '/newPassword', message: m }] });
      }
      const password_hash = await hashPassword(newPassword);
      await knex('users').where({ id: row.id }).update({ password_hash, updated_at: knex.fn.now() });
      const current = sessionId(c);
      await knex('user_sessions').where({ user_id: row.id }).modify((q) => {
        if (current) q.whereNot('id', current);
      }).del();
      // This session carries on under a new id.
      await startSession(c, row.id, Boolean(c.session?.rememberMe));
      return { success: true, message: 'Password updated' };
    },
  });

  ctx.routes.add({
    method: 'DELETE',
    path: '/api/user/account',
    operationId: 'deleteAccount',
    summary: "Delete one's own account, personal data and files: signs out everywhere; the deletion happens after the grace period (deletionGraceDays, 14) unless the member signs in before",
    auth: 'required',
    schema: { response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const { eraseAt } = await userData.requestDeletion(c.user!.id);
      c.session = null;
      if (!eraseAt) return { success: true, message: 'Account deleted' };
      return { success: true, message: `Account deleted. It will be erased for good on ${eraseAt.toISOString().slice(0, 10)}; sign in before then to keep it.` };
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/user/preferences',
    operationId: 'getPreferences',
    summary: 'Privacy and notification preferences of the signed-in user',
    auth: 'required',
    schema: { response: { $ref: 'accounts/Preferences' } },
    handler: (c) => readPreferences(knex, c.user!.id),
  });

  ctx.routes.add<unknown, unknown, Partial<UserPreferences>>({
    method: 'PUT',
    path: '/api/user/preferences',
    operationId: 'updatePreferences',
    summary: 'Change any of the privacy and notification preferences; answers all of them',
    auth: 'required',
    schema: { body: { $ref: 'accounts/PreferencesUpdateBody' }, response: { $ref: 'accounts/Preferences' } },
    async handler(c) {
      const prefs = await writePreferences(knex, c.user!.id, c.input.body);
      // a profile open to all needs no approvals: pending follow requests are accepted
      if (c.input.body.profileVisibility === 'public') await onProfilePublic({ ctx, knex }, c.user!.id);
      return prefs;
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/user/profile-image',
    operationId: 'uploadProfileImage',
    summary: 'Upload a profile photo (multipart field "image": JPG, PNG or GIF up to 5 MB), re-encoded to 400x400',
    auth: 'required',
    bodyType: 'multipart',
    schema: { response: { $ref: 'accounts/User' } },
    async handler(c) {
      const parsed = await ctx.uploads.parse(c, {
        maxFileSize: PROFILE_IMAGE_MAX_BYTES,
        maxFiles: 1,
        fileFields: ['image', 'file', 'profileImage'],
        tooLargeMessage: IMAGE_TOO_LARGE,
      });
      try {
        const file = parsed.files[0];
        if (!file || file.size === 0) throw new HttpError(400, 'Please choose an image to upload.');
        // The real content decides, not the name or the declared type.
        let format: string | undefined;
        try {
          format = (await sharp(file.path, { failOn: 'error' }).metadata()).format;
        } catch {
          format = undefined;
        }
        if (!format || !['jpeg', 'png', 'gif'].includes(format)) throw new HttpError(400, IMAGE_INVALID);
        const img = await ctx.uploads.processImage(file, { prefix: 'avatars', width: PROFILE_IMAGE_SIZE, height: PROFILE_IMAGE_SIZE, fit: 'cover', invalidMessage: IMAGE_INVALID });
        const me = c.user!.id;
        const old = await knex('users').where({ id: me }).first('profile_image_url');
        // the new picture's info (null until its variants job has run), in this statement
        const [row] = await knex('users').where({ id: me }).update({ profile_image_url: img.url, updated_at: knex.fn.now() }).returning(ownUserColumns(knex));
        if (!row) {
          await ctx.storage.delete(img.key).catch(() => {});
          throw new HttpError(401, 'Authentication required');
        }
        const oldKey = old?.profile_image_url && old.profile_image_url !== img.url ? ctx.storage.keyFromUrl(old.profile_image_url) : null;
        if (oldKey) await ctx.storage.delete(oldKey).catch((err) => ctx.log.warn({ err, key: oldKey }, 'could not delete the previous profile photo'));
        await ctx.events.emit('accounts.user.updated', { userId: me, fields: ['profileImageUrl'] });
        return toOwnUser(row);
      } finally {
        await ctx.uploads.cleanup(parsed.files);
      }
    },
  });
}
