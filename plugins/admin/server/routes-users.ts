import { HttpError } from '../../../core/errors.ts';
import type { UserSummary } from '../../accounts/public.ts';
import { AdminActionsService, type ModerationType } from '../public.ts';
import { ACTIONS, MODERATION_ACTION } from '../shared/actions.ts';
import { Deps, LAST_ADMIN, USER_NOT_FOUND, english, type Admin } from './deps.ts';
import { BAN_TYPES, DEFAULT_TEMPORARY_BAN_MS, SEVERITY, effective, iso, isoOrNull, statusOf } from './moderation.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `admin/${n}` });

type ListedUser = UserSummary & { email: string };

export function registerUserRoutes(d: Deps) {
  const { ctx, knex } = d;

  /** Users as the admin list shows them: with the most severe moderation in effect. */
  async function withModeration(users: ListedUser[]) {
    const ids = users.map((u) => u.id);
    const rows = ids.length ? await effective(knex).whereIn('user_id', ids).select('*') : [];
    const best = new Map<number, any>();
    for (const r of rows) {
      const cur = best.get(r.user_id);
      if (!cur || SEVERITY[r.type as ModerationType] > SEVERITY[cur.type as ModerationType]) best.set(r.user_id, r);
    }
    return users.map((u) => {
      const m = best.get(u.id);
      return {
        id: u.id,
        slug: u.slug,
        username: u.username,
        firstName: u.firstName ?? '',
        lastName: u.lastName ?? '',
        email: u.email ?? '',
        role: u.role,
        profileImageUrl: u.profileImageUrl ?? null,
        // read with the user in accounts' statement (listUsers, findUser)
        profileImageInfo: u.profileImageInfo ?? null,
        moderation: m ? { id: Number(m.id), type: m.type, reason: m.reason, status: 'active', expiresAt: isoOrNull(m.expires_at), createdAt: iso(m.created_at) } : null,
      };
    });
  }

  async function listUsers(q: { q?: string; page: number; pageSize: number; role?: string }) {
    let roles: string[] | undefined;
    if (q.role) {
      const r = d.accounts().canonicalRole(q.role);
      if (!r) throw new HttpError(400, 'Invalid role');
      roles = [r];
    }
    const res = await d.accounts().listUsers({ q: q.q?.trim() || undefined, roles, page: q.page, pageSize: q.pageSize });
    return { items: await withModeration(res.items), total: res.total, page: q.page, pageSize: q.pageSize };
  }

  async function userRecord(id: number) {
    const u = await d.accounts().findUser(id);
    if (!u) throw new HttpError(404, USER_NOT_FOUND);
    return (await withModeration([u]))[0];
  }

  ctx.routes.add<unknown, { q?: string; page: number; pageSize: number; role?: string }>({
    method: 'GET',
    path: '/api/admin/users',
    operationId: 'adminListUsers',
    summary: 'Users, 10 per page, with search on name, username and email, and their active moderation',
    roles: ADMIN,
    schema: { query: ref('UserListQuery'), response: ref('AdminUserPage') },
    handler: (c) => listUsers(c.input.query),
  });

  ctx.routes.add<unknown, { q?: string; page: number; pageSize: number; role?: string }>({
    method: 'GET',
    path: '/api/admin/users/search',
    operationId: 'adminSearchUsers',
    summary: 'Users whose name, username or email contains q (case-insensitive)',
    roles: ADMIN,
    schema: { query: ref('UserListQuery'), response: ref('AdminUserPage') },
    handler: (c) => listUsers(c.input.query),
  });

  ctx.routes.add<unknown, { status: 'active' | 'all'; userId?: number; page: number; pageSize: number }>({
    method: 'GET',
    path: '/api/admin/moderations',
    operationId: 'adminListModerations',
    summary: 'Moderations in effect (or every moderation with status=all), newest first',
    roles: ADMIN,
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'string', enum: ['active', 'all'], default: 'active' },
          userId: { type: 'integer', minimum: 1, maximum: 2147483647 },
          page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
          pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
        },
      },
      response: ref('ModerationPage'),
    },
    async handler(c) {
      const q = c.input.query;
      const base = q.status === 'active' ? effective(knex) : knex('admin_moderations');
      if (q.userId) base.where('user_id', q.userId);
      const [{ n }] = await base.clone().count({ n: '*' });
      const rows = await base.clone().select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
      const people = await d.accounts().getUserSummaries([...new Set(rows.map((r: any) => r.user_id))]);
      const now = Date.now();
      return {
        items: rows.map((r: any) => toModeration(r, people.get(r.user_id) ?? null, now)),
        total: Number(n),
        page: q.page,
        pageSize: q.pageSize,
      };
    },
  });

  async function moderateUser(me: Admin, input: { userId: number; type: ModerationType; reason: string; expiresAt?: string | null; details?: Record<string, unknown> }) {
    const { userId, type } = input;
    const reason = input.reason.trim();
    if (!reason) throw new HttpError(400, 'Reason is required', { errors: [{ path: '/reason', message: 'Reason is required' }] });
    if (userId === me.id) throw new HttpError(400, 'You cannot moderate yourself');
    let expires: Date | null = null;
    const raw = input.expiresAt?.trim() || null;
    if (raw) {
      if (type !== 'temporary_ban' && type !== 'content_restriction') {
        throw new HttpError(400, 'An expiry applies only to temporary bans and content restrictions', { errors: [{ path: '/expiresAt', message: 'An expiry applies only to temporary bans and content restrictions' }] });
      }
      expires = new Date(raw);
      if (Number.isNaN(expires.getTime())) throw new HttpError(400, 'Expiry is not a valid date', { errors: [{ path: '/expiresAt', message: 'Expiry is not a valid date' }] });
      if (expires.getTime() <= Date.now()) throw new HttpError(400, 'Expiry must be in the future', { errors: [{ path: '/expiresAt', message: 'Expiry must be in the future' }] });
    } else if (type === 'temporary_ban') {
      expires = new Date(Date.now() + DEFAULT_TEMPORARY_BAN_MS);
    }
    const target = await d.accounts().findUser(userId);
    if (!target) throw new HttpError(404, USER_NOT_FOUND);

    const row = await d.exclusive(async () => {
      await d.assertStillAdmin(me.id);
      return knex.transaction(async (trx) => {
        const [m] = await trx('admin_moderations').insert({ user_id: userId, type, reason, expires_at: expires, created_by: me.id }).returning('*');
        await d.audit.record(trx, {
          action: MODERATION_ACTION[type],
          targetType: 'user',
          targetId: userId,
          reason,
          details: { ...(input.details ?? {}), moderationId: Number(m.id), type, expiresAt: isoOrNull(expires), username: target.username, role: target.role },
          admin: me,
        });
        return m;
      });
    });

    // After the commit: a ban ends the member's stored sessions now (the login guard also refuses
    // every later request and sign-in until it expires); warnings and restrictions are told to the member.
    if (BAN_TYPES.includes(type)) {
      try {
        await d.accounts().endSessions(userId);
      } catch (err) {
        ctx.log.error({ err, userId }, 'could not end the sessions of a banned member (the login guard still refuses them)');
      }
    } else {
      // a restriction (or warning): every process reads the member's guards again at their next request
      await d.accounts().sessionsChanged([userId]);
      const until = expires ? expires.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '';
      const key = type === 'warning' ? 'warning' : expires ? 'restrictedUntil' : 'restricted';
      const params = { reason, until };
      await d.notify([userId], {
        type: 'moderation',
        title: english(`notification.${key}.title`, params),
        message: english(`notification.${key}.message`, params),
        priority: 'high',
        template: `admin:notification.${key}`,
        params,
      });
    }
    await ctx.events.emit('admin.user.moderated', { userId, moderationId: Number(row.id), type, expiresAt: isoOrNull(row.expires_at), adminId: me.id });
    return { row, target };
  }

  ctx.services.provide(AdminActionsService, {
    async moderateUser(admin, input) {
      const { row } = await moderateUser(admin, input);
      return { moderationId: Number(row.id), type: row.type, expiresAt: isoOrNull(row.expires_at) };
    },
    audited: (admin, entry, fn) => d.audit.delegated({ ...entry, admin }, fn),
  });

  ctx.routes.add<unknown, unknown, { userId: number; type: ModerationType; reason: string; expiresAt?: string | null }>({
    method: 'POST',
    path: '/api/admin/moderate-user',
    operationId: 'adminModerateUser',
    summary: 'Warn, ban (temporarily or permanently) or restrict a member; enforced at once',
    roles: ADMIN,
    status: 201,
    schema: { body: ref('ModerateUserBody'), response: { 201: ref('Moderation') } },
    async handler(c) {
      const { row, target } = await moderateUser(d.admin(c), c.input.body);
      return toModeration(row, target, Date.now());
    },
  });

  ctx.routes.add<{ id: number }, unknown, { reason?: string | null }>({
    method: 'POST',
    path: '/api/admin/moderations/:id/lift',
    operationId: 'adminLiftModeration',
    summary: 'Lift a moderation before it expires (unban, remove a restriction or a warning)',
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, body: ref('LiftModerationBody'), response: ref('Moderation') },
    async handler(c) {
      const me = d.admin(c);
      const id = c.input.params.id;
      const reason = c.input.body?.reason?.trim() || null;
      const row = await knex.transaction(async (trx) => {
        const m = await trx('admin_moderations').where({ id }).forUpdate().first();
        if (!m) throw new HttpError(404, 'Moderation not found');
        if (statusOf(m) !== 'active') throw new HttpError(409, 'This moderation is no longer in effect');
        const [u] = await trx('admin_moderations').where({ id }).update({ status: 'revoked', revoked_by: me.id, revoked_at: trx.fn.now(), revoke_reason: reason }).returning('*');
        await d.audit.record(trx, {
          action: ACTIONS.liftModeration,
          targetType: 'user',
          targetId: m.user_id,
          reason,
          details: { moderationId: Number(m.id), type: m.type },
          admin: me,
        });
        return u;
      });
      // every process reads the member's restriction again at their next request
      await d.accounts().sessionsChanged([row.user_id]);
      await ctx.events.emit('admin.moderation.lifted', { userId: row.user_id, moderationId: Number(row.id), type: row.type, adminId: me.id });
      // a summary with the avatar's made widths (getUserSummaries reads them in its one statement)
      const user = (await d.accounts().getUserSummaries([row.user_id])).get(row.user_id) ?? null;
      return toModeration(row, user, Date.now());
    },
  });

  ctx.routes.add<unknown, unknown, { userId: number; role: string }>({
    method: 'POST',
    path: '/api/admin/change-user-role',
    operationId: 'adminChangeUserRole',
    summary: "Change a member's role (Traveler, Ambassador, Museum Manager, Admin; other spellings accepted)",
    roles: ADMIN,
    schema: { body: ref('ChangeRoleBody'), response: ref('AdminUser') },
    async handler(c) {
      const me = d.admin(c);
      const { userId } = c.input.body;
      const accounts = d.accounts();
      const role = accounts.canonicalRole(c.input.body.role);
      if (!role) throw new HttpError(400, 'Role must be Traveler, Ambassador, Museum Manager or Admin', { errors: [{ path: '/role', message: 'Role must be Traveler, Ambassador, Museum Manager or Admin' }] });
      if (userId === me.id) throw new HttpError(400, 'You cannot change your own role');
      await d.exclusive(async () => {
        await d.assertStillAdmin(me.id);
        const target = await accounts.findUser(userId);
        if (!target) throw new HttpError(404, USER_NOT_FOUND);
        if (target.role === role) return;
        const demotesAdmin = target.role === 'Admin';
        if (demotesAdmin && (await d.countAdmins()) <= 1) throw new HttpError(409, LAST_ADMIN);
        await d.audit.delegated(
          { action: ACTIONS.changeUserRole, targetType: 'user', targetId: userId, details: { username: target.username, before: target.role, after: role }, admin: me },
          async () => {
            if (!(await accounts.setRole(userId, role))) throw new HttpError(404, USER_NOT_FOUND);
            // Belt and braces: never leave the platform without an Admin, whatever ran meanwhile.
            if (demotesAdmin && (await d.countAdmins()) < 1) {
              await accounts.setRole(userId, 'Admin');
              throw new HttpError(409, LAST_ADMIN);
            }
          },
        );
      });
      return userRecord(userId);
    },
  });

  ctx.routes.add<unknown, unknown, { userId: number; reason: string }>({
    method: 'DELETE',
    path: '/api/admin/delete-user',
    operationId: 'adminDeleteUser',
    summary: 'Delete a member and their data (userId and reason in the JSON body)',
    roles: ADMIN,
    schema: { body: ref('DeleteUserBody'), response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const me = d.admin(c);
      const { userId } = c.input.body;
      const reason = c.input.body.reason.trim();
      if (userId === me.id) throw new HttpError(400, 'You cannot delete your own account here');
      const accounts = d.accounts();
      await d.exclusive(async () => {
        await d.assertStillAdmin(me.id);
        const target = await accounts.findUser(userId);
        if (!target) throw new HttpError(404, USER_NOT_FOUND);
        if (target.role === 'Admin' && (await d.countAdmins()) <= 1) throw new HttpError(409, LAST_ADMIN);
        await d.audit.delegated(
          {
            action: ACTIONS.deleteUser,
            targetType: 'user',
            targetId: userId,
            reason,
            // A snapshot: the member is gone afterwards.
            details: { username: target.username, email: target.email, role: target.role, name: `${target.firstName} ${target.lastName}`.trim() },
            admin: me,
          },
          async () => {
            if (!(await accounts.deleteUser(userId))) throw new HttpError(404, USER_NOT_FOUND);
          },
        );
      });
      return { success: true, message: 'User deleted successfully' };
    },
  });
}

export function toModeration(r: any, user: UserSummary | null | undefined, now: number) {
  return {
    id: Number(r.id),
    userId: r.user_id,
    type: r.type,
    reason: r.reason,
    status: statusOf(r, now),
    expiresAt: isoOrNull(r.expires_at),
    createdAt: iso(r.created_at),
    createdBy: r.created_by ?? null,
    revokedAt: isoOrNull(r.revoked_at),
    revokedBy: r.revoked_by ?? null,
    user: user
      ? { id: user.id, slug: user.slug, username: user.username, firstName: user.firstName, lastName: user.lastName, profileImageUrl: user.profileImageUrl, ...(user.profileImageInfo !== undefined ? { profileImageInfo: user.profileImageInfo } : {}), role: user.role }
      : null,
  };
}
