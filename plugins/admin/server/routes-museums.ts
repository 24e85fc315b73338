import { HttpError, isHttpError } from '../../../core/errors.ts';
import type { Museum, MuseumInput, SuggestionStatus } from '../../museums/public.ts';
import { ACTIONS } from '../shared/actions.ts';
import { Deps } from './deps.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `admin/${n}` });
const mref = (n: string) => ({ $ref: `museums/${n}` });

export const UPDATE_MUSEUMS_JOB = 'admin.update-museums';
const MUSEUM_NOT_FOUND = 'Museum not found';

/** The fields of `body` whose value differs in `after` from `before` (for the audit details). */
function diff(before: Record<string, any>, after: Record<string, any>, keys: string[]) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of keys) {
    if (JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null)) {
      b[k] = before[k] ?? null;
      a[k] = after[k] ?? null;
    }
  }
  return { before: b, after: a };
}

type JobView = { jobId: number; status: 'queued' | 'running' | 'done' | 'failed'; progress: { done: number; total: number } | null; stats: { checked: number; updated: number; failed: number } | null; error: string | null };

function jobView(j: any): JobView {
  const parse = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);
  const result = parse(j.result);
  const progress = parse(j.progress);
  return {
    jobId: Number(j.id),
    status: j.status,
    progress: progress && typeof progress.done === 'number' ? { done: progress.done, total: progress.total } : null,
    stats: j.status === 'done' && result ? { checked: Number(result.checked ?? 0), updated: Number(result.updated ?? 0), failed: Number(result.failed ?? 0) } : null,
    error: j.status === 'failed' ? (j.error ?? 'Failed to update museums') : null,
  };
}

export function registerMuseumRoutes(d: Deps) {
  const { ctx, knex } = d;

  async function getMuseum(id: number): Promise<Museum> {
    const [m] = await d.museums().getMuseums([id]);
    if (!m) throw new HttpError(404, MUSEUM_NOT_FOUND);
    return m;
  }

  ctx.routes.add<unknown, { page: number; pageSize: number; q?: string; search?: string; status: any }>({
    method: 'GET',
    path: '/api/admin/museums',
    operationId: 'adminListMuseums',
    summary: 'Museums with search on name, city or country and a status filter, page-numbered',
    roles: ADMIN,
    schema: { query: ref('AdminMuseumQuery'), response: mref('MuseumPage') },
    handler: (c) => {
      const q = c.input.query;
      return d.museums().adminList({ q: (q.q ?? q.search)?.trim() || undefined, status: q.status, page: q.page, pageSize: q.pageSize });
    },
  });

  ctx.routes.add<unknown, unknown, MuseumInput & { name: string; address: string; city: string; country: string; managerId?: number | null }>({
    method: 'POST',
    path: '/api/admin/create-museum',
    operationId: 'adminCreateMuseum',
    summary: 'Create a museum (verified, optionally with a manager)',
    roles: ADMIN,
    status: 201,
    schema: { body: ref('CreateMuseumBody'), response: { 201: mref('Museum') } },
    async handler(c) {
      const me = d.admin(c);
      const { managerId, ...input } = c.input.body;
      const museums = d.museums();
      const created = await d.audit.delegated(
        { action: ACTIONS.createMuseum, targetType: 'museum', details: { name: input.name, city: input.city, country: input.country }, admin: me },
        async () => {
          let m = await museums.createMuseum(input, me.id);
          m = await museums.setVerified(m.id, true, me.id);
          if (managerId != null) m = await museums.setManager(m.id, managerId, me.id);
          return m;
        },
        (m) => ({ targetId: m.id, details: { slug: m.slug, managerId: m.managerId } }),
      );
      return created;
    },
  });

  ctx.routes.add<{ id: number }, unknown, MuseumInput & { managerId?: number | null; isVerified?: boolean }>({
    method: 'PUT',
    path: '/api/admin/museums/:id',
    operationId: 'adminUpdateMuseum',
    summary: 'Edit a museum; managerId null removes its manager',
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, body: ref('UpdateMuseumBody'), response: mref('Museum') },
    async handler(c) {
      const me = d.admin(c);
      const id = c.input.params.id;
      const { managerId, isVerified, ...changes } = c.input.body;
      const museums = d.museums();
      const before = await getMuseum(id);
      const keys = [...Object.keys(changes), ...(managerId !== undefined ? ['managerId'] : []), ...(isVerified !== undefined ? ['isVerified'] : [])];
      return d.audit.delegated(
        { action: ACTIONS.updateMuseum, targetType: 'museum', targetId: id, details: { name: before.name }, admin: me },
        async () => {
          // The manager first: when it cannot be assigned, nothing else has changed yet, and the
          // answer names the field (the dialog then says "Failed to assign manager").
          if (managerId !== undefined && managerId !== before.managerId) {
            try {
              await museums.setManager(id, managerId, me.id);
            } catch (err) {
              if (isHttpError(err) && err.status < 500) throw new HttpError(err.status, err.message, { errors: [{ path: '/managerId', message: err.message }] });
              throw err;
            }
          }
          let m = await museums.updateMuseum(id, changes, me.id);
          if (isVerified !== undefined && isVerified !== m.isVerified) m = await museums.setVerified(id, isVerified, me.id);
          return m;
        },
        (m) => ({ details: { name: m.name, ...diff(before as any, m as any, keys) } }),
      );
    },
  });

  ctx.routes.add<unknown, unknown, { museumId: number; verified: boolean }>({
    method: 'POST',
    path: '/api/admin/verify-museum',
    operationId: 'adminVerifyMuseum',
    summary: 'Mark a museum verified or unverified',
    roles: ADMIN,
    schema: { body: ref('VerifyMuseumBody'), response: mref('Museum') },
    async handler(c) {
      const me = d.admin(c);
      const { museumId, verified } = c.input.body;
      const before = await getMuseum(museumId);
      if (before.isVerified === verified) return before;
      return d.audit.delegated(
        { action: verified ? ACTIONS.verifyMuseum : ACTIONS.unverifyMuseum, targetType: 'museum', targetId: museumId, details: { name: before.name, before: { isVerified: before.isVerified }, after: { isVerified: verified } }, admin: me },
        () => d.museums().setVerified(museumId, verified, me.id),
      );
    },
  });

  ctx.routes.add<unknown, unknown, { museumId: number; managerId: number | null }>({
    method: 'POST',
    path: '/api/admin/assign-museum-manager',
    operationId: 'adminAssignMuseumManager',
    summary: 'Assign a Museum Manager (or an Admin) to a museum; managerId null removes the manager',
    roles: ADMIN,
    schema: { body: ref('AssignManagerBody'), response: mref('Museum') },
    async handler(c) {
      const me = d.admin(c);
      const { museumId, managerId } = c.input.body;
      const before = await getMuseum(museumId);
      if (before.managerId === managerId) return before;
      const manager = managerId != null ? await d.accounts().getUserSummary(managerId) : null;
      return d.audit.delegated(
        {
          action: managerId == null ? ACTIONS.removeMuseumManager : ACTIONS.assignMuseumManager,
          targetType: 'museum',
          targetId: museumId,
          details: { name: before.name, before: { managerId: before.managerId }, after: { managerId }, managerUsername: manager?.username ?? null },
          admin: me,
        },
        () => d.museums().setManager(museumId, managerId, me.id),
      );
    },
  });

  ctx.routes.add<unknown, { q?: string; limit: number }>({
    method: 'GET',
    path: '/api/admin/museum-managers',
    operationId: 'adminListMuseumManagers',
    summary: 'Users who can manage a museum (role Museum Manager or Admin) matching q (2 characters or more)',
    roles: ADMIN,
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          q: { type: 'string', maxLength: 200, description: 'name, username or email; shorter than 2 characters answers nothing' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
        },
      },
      response: { type: 'array', items: ref('ManagerCandidate') },
    },
    async handler(c) {
      const q = c.input.query.q?.trim() ?? '';
      if (q.length < 2) return [];
      const res = await d.accounts().listUsers({ q, roles: ['Museum Manager', 'Admin'], page: 1, pageSize: c.input.query.limit });
      return res.items.map((u) => ({ id: u.id, username: u.username, firstName: u.firstName ?? '', lastName: u.lastName ?? '', email: u.email ?? '', role: u.role, profileImageUrl: u.profileImageUrl ?? null, profileImageInfo: u.profileImageInfo ?? null }));
    },
  });

  // ---- Update Museums: a background job with progress ----
  ctx.jobs.define(UPDATE_MUSEUMS_JOB, async (payload, h) => {
    const museums = d.museums();
    const batch = Number(ctx.config.updateMuseumsBatch ?? 10);
    let ids: number[] = Array.isArray(payload.museumIds) ? payload.museumIds.map(Number) : [];
    if (!ids.length) {
      // Every museum; the museums service skips those missing nothing.
      for (let page = 1; ; page++) {
        const p = await museums.adminList({ page, pageSize: 100 });
        ids.push(...p.items.map((m) => m.id));
        if (p.items.length < 100 || ids.length >= p.total) break;
      }
    }
    ids = [...new Set(ids)];
    const stats = { checked: 0, updated: 0, failed: 0 };
    await h.progress(0, ids.length);
    try {
      for (let i = 0; i < ids.length; i += batch) {
        const part = ids.slice(i, i + batch);
        const r = await museums.enrichFromKnowledgeBase({ museumIds: part, limit: part.length });
        stats.checked += r.checked;
        stats.updated += r.updated;
        stats.failed += r.failed;
        await h.progress(Math.min(ids.length, i + part.length), ids.length);
      }
    } catch (err: any) {
      if (payload.auditId) await knex('admin_actions').where({ id: payload.auditId }).update({ outcome: 'done', details: JSON.stringify({ ...stats, museums: ids.length, error: String(err?.message ?? err) }) });
      throw err;
    }
    if (payload.auditId) await knex('admin_actions').where({ id: payload.auditId }).update({ outcome: 'done', details: JSON.stringify({ ...stats, museums: ids.length }) });
    return stats;
  });

  ctx.routes.add<unknown, unknown, { museumIds?: number[]; wait: boolean }>({
    method: 'POST',
    path: '/api/admin/update-museums',
    operationId: 'adminUpdateMuseums',
    summary: 'Fill missing museum information from Wikidata, as a background job; waits a few seconds for it, then answers its progress',
    roles: ADMIN,
    schema: { body: ref('UpdateMuseumsBody'), response: ref('Job') },
    async handler(c) {
      const me = d.admin(c);
      d.museums();
      // The audit entry is written first ('pending'); the job completes it with its statistics.
      const [a] = await knex('admin_actions')
        .insert({ action: ACTIONS.updateMuseums, target_type: 'museum', target_id: null, details: JSON.stringify({ museumIds: c.input.body.museumIds ?? null }), admin_id: me.id, admin_username: me.username, outcome: 'pending' })
        .returning('id');
      const auditId = Number(a.id ?? a);
      let job = await ctx.jobs.enqueue(UPDATE_MUSEUMS_JOB, { museumIds: c.input.body.museumIds ?? null, auditId, adminId: me.id }, { uniqueKey: UPDATE_MUSEUMS_JOB, maxAttempts: 1 });
      const payload = typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload;
      if (payload?.auditId !== auditId) await knex('admin_actions').where({ id: auditId }).del(); // joined a run already under way
      const waitMs = c.input.body.wait === false ? 0 : Number(ctx.config.updateMuseumsWaitMs ?? 8000);
      const end = Date.now() + waitMs;
      while (job && (job.status === 'queued' || job.status === 'running') && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 150));
        job = (await ctx.jobs.get(Number(job.id)))!;
      }
      return jobView(job);
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/admin/jobs/:id',
    operationId: 'adminGetJob',
    summary: 'Progress of a dashboard background job (Update Museums)',
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, response: ref('Job') },
    async handler(c) {
      const job = await ctx.jobs.get(c.input.params.id);
      if (!job || job.name !== UPDATE_MUSEUMS_JOB) throw new HttpError(404, 'Job not found');
      return jobView(job);
    },
  });

  // ---- suggestions ----
  ctx.routes.add<unknown, { status: SuggestionStatus | 'all'; page: number; pageSize: number }>({
    method: 'GET',
    path: '/api/admin/museum-edit-suggestions',
    operationId: 'adminListEditSuggestions',
    summary: "Members' suggested museum edits, newest first, with the number pending",
    roles: ADMIN,
    schema: { query: ref('SuggestionQuery'), response: ref('EditSuggestionList') },
    async handler(c) {
      const q = c.input.query;
      const museums = d.museums();
      const [list, pending] = await Promise.all([
        museums.listEditSuggestions({ status: q.status === 'all' ? undefined : q.status, page: q.page, pageSize: q.pageSize }),
        museums.listEditSuggestions({ status: 'pending', page: 1, pageSize: 1 }),
      ]);
      return { ...list, pendingCount: pending.total };
    },
  });

  const review = (kind: 'edit' | 'new', approve: boolean) => async (c: any) => {
    const me = d.admin(c);
    const { suggestionId } = c.input.body as { suggestionId: number; note?: string | null };
    const note = (c.input.body.note as string | null | undefined)?.trim() || null;
    const museums = d.museums();
    const action =
      kind === 'edit' ? (approve ? ACTIONS.approveEditSuggestion : ACTIONS.rejectEditSuggestion) : approve ? ACTIONS.approveMuseumSuggestion : ACTIONS.rejectMuseumSuggestion;
    return d.audit.delegated(
      { action, targetType: kind === 'edit' ? 'edit_suggestion' : 'museum_suggestion', targetId: suggestionId, reason: note, admin: me },
      async (): Promise<any> => {
        if (kind === 'edit') return approve ? museums.approveEditSuggestion(suggestionId, me.id) : museums.rejectEditSuggestion(suggestionId, me.id, note);
        if (approve) return museums.approveMuseumSuggestion(suggestionId, me.id);
        return museums.rejectMuseumSuggestion(suggestionId, me.id, note);
      },
      (r: any) => {
        if (kind === 'edit') return { details: { museumId: r.museumId, museumName: r.museum?.name ?? null, suggestedChanges: r.suggestedChanges, suggesterId: r.user?.id ?? null } };
        const s = approve ? r.suggestion : r;
        return { details: { name: s.name, city: s.city, country: s.country, museumId: approve ? (r.museum?.id ?? null) : null, suggesterId: s.user?.id ?? null } };
      },
    );
  };

  for (const [approve, verb] of [
    [true, 'approve'],
    [false, 'reject'],
  ] as const) {
    ctx.routes.add({
      method: 'POST',
      path: `/api/admin/${verb}-museum-edit-suggestion`,
      operationId: `admin${verb === 'approve' ? 'Approve' : 'Reject'}EditSuggestion`,
      summary: approve
        ? 'Approve a suggested edit: applies exactly the suggested changes, records the reviewer, notifies the suggester; 409 when already reviewed'
        : 'Reject a suggested edit: records the reviewer, notifies the suggester; 409 when already reviewed',
      roles: ADMIN,
      schema: { body: ref('SuggestionReviewBody'), response: mref('EditSuggestion') },
      handler: review('edit', approve),
    });
  }

  ctx.routes.add<unknown, { status: SuggestionStatus | 'all'; page: number; pageSize: number }>({
    method: 'GET',
    path: '/api/admin/museum-suggestions',
    operationId: 'adminListMuseumSuggestions',
    summary: 'New museums proposed by members (POST /api/museum-suggestions), newest first, with the number pending',
    roles: ADMIN,
    schema: { query: ref('SuggestionQuery'), response: ref('MuseumSuggestionList') },
    async handler(c) {
      const q = c.input.query;
      const museums = d.museums();
      const [list, pending] = await Promise.all([
        museums.listMuseumSuggestions({ status: q.status === 'all' ? undefined : q.status, page: q.page, pageSize: q.pageSize }),
        museums.listMuseumSuggestions({ status: 'pending', page: 1, pageSize: 1 }),
      ]);
      return { ...list, pendingCount: pending.total };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/admin/approve-museum-suggestion',
    operationId: 'adminApproveMuseumSuggestion',
    summary: "Approve a member's new museum: creates it (unverified) and notifies them; 409 when already reviewed",
    roles: ADMIN,
    schema: { body: ref('SuggestionReviewBody'), response: ref('ApprovedMuseumSuggestion') },
    handler: review('new', true),
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/admin/reject-museum-suggestion',
    operationId: 'adminRejectMuseumSuggestion',
    summary: "Reject a member's new museum and notify them; 409 when already reviewed",
    roles: ADMIN,
    schema: { body: ref('SuggestionReviewBody'), response: mref('MuseumSuggestion') },
    handler: review('new', false),
  });
}
