/**
 * A photo per accessibility fact (issue 20), e.g. the step-free entrance: the museum's manager or an
 * Admin attaches, replaces or removes it; any other member suggests one (an edit suggestion that
 * carries the stored photo, approved like any other). Photos are re-encoded by the core image
 * pipeline (real image check, auto-rotated, EXIF/GPS dropped, responsive variants made in the
 * background) and stored under museums/accessibility/. The storage sweep keeps the photos a museum
 * or a pending suggestion names; a removed or replaced photo is deleted at once when nothing else
 * names it (a rejected suggestion's photo goes with the sweep).
 */
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { ACCESS_KEYS, ACCESS_PHOTO_PREFIX, normalizeAccessibility, type AccessKey } from '../shared/accessibility.ts';
import type { MuseumsDomain } from './service.ts';

const MAX_BYTES = 10 * 1024 * 1024;
const params = {
  type: 'object',
  required: ['id', 'fact'],
  additionalProperties: false,
  properties: { id: { $ref: 'shared/Id' }, fact: { type: 'string', enum: [...ACCESS_KEYS] } },
};
const errors = { 400: { $ref: 'shared/Error' }, 401: { $ref: 'shared/Error' }, 403: { $ref: 'shared/Error' }, 404: { $ref: 'shared/Error' }, 409: { $ref: 'shared/Error' }, 413: { $ref: 'shared/Error' } };

/** Which of these photo URLs a museum or a pending edit suggestion still names. */
export async function referencedAccessPhotos(knex: Knex, urls: string[]): Promise<Set<string>> {
  if (!urls.length) return new Set();
  const r = await knex.raw(
    `select f.value->>'photo' as url from museums m cross join lateral jsonb_each(case when jsonb_typeof(m.accessibility) = 'object' then m.accessibility else '{}'::jsonb end) f
       where f.value->>'photo' = any(?::text[])
     union
     select f.value->>'photo' from museum_edit_suggestions s
       cross join lateral jsonb_each(case when jsonb_typeof(s.suggested_changes->'accessibility') = 'object' then s.suggested_changes->'accessibility' else '{}'::jsonb end) f
       where s.status = 'pending' and f.value->>'photo' = any(?::text[])`,
    [urls, urls],
  );
  return new Set((r.rows as Array<{ url: string }>).map((x) => x.url));
}

export function accessPhotoRoutes(ctx: PluginContext, d: MuseumsDomain): void {
  const knex = ctx.db;

  ctx.uploads.ownFiles({
    prefixes: [ACCESS_PHOTO_PREFIX],
    referenced: async (keys) => {
      const byUrl = new Map(keys.map((k) => [ctx.storage.url(k), k]));
      const used = await referencedAccessPhotos(knex, [...byUrl.keys()]);
      return [...used].map((u) => byUrl.get(u)!).filter(Boolean);
    },
  });

  /** Deletes photos (and their variants) nothing names any more. */
  async function dropUnreferenced(urls: Array<string | undefined>) {
    const list = urls.filter((u): u is string => !!u);
    const used = await referencedAccessPhotos(knex, list);
    for (const u of list) {
      if (used.has(u)) continue;
      const key = ctx.storage.keyFromUrl(u);
      if (key?.startsWith(`${ACCESS_PHOTO_PREFIX}/`)) await ctx.storage.delete(key).catch((err) => ctx.log.warn({ err, key }, 'could not delete an accessibility photo'));
    }
  }

  async function loadForManager(c: any, id: number) {
    const row = await knex('museums').where({ id }).first('id', 'accessibility');
    if (!row) throw new HttpError(404, 'Museum not found');
    if (!(await d.canManage(c.user, id))) throw new HttpError(403, "Only an Admin or this museum's manager can change its photos. Suggest a photo instead.");
    return normalizeAccessibility(typeof row.accessibility === 'string' ? JSON.parse(row.accessibility) : row.accessibility);
  }

  /** Parses the multipart body and stores the re-encoded photo; the caller cleans up parsed files. */
  async function storePhoto(c: any) {
    const parsed = await ctx.uploads.parse(c, { maxFileSize: MAX_BYTES, maxFiles: 1, fileFields: ['photo'], tooLargeMessage: 'Photo too large: at most 10 MB' });
    const file = parsed.files[0];
    if (!file) {
      await ctx.uploads.cleanup(parsed.files);
      throw new HttpError(400, 'Please choose a photo');
    }
    try {
      const img = await ctx.uploads.processImage(file, { prefix: ACCESS_PHOTO_PREFIX, width: 2048, height: 2048, fit: 'inside', invalidMessage: 'The file is not a valid image (JPG, PNG, GIF or WebP)' });
      return { url: img.url, fields: parsed.fields };
    } finally {
      await ctx.uploads.cleanup(parsed.files);
    }
  }

  ctx.routes.add<{ id: number; fact: AccessKey }>({
    method: 'POST',
    path: '/api/museums/:id/accessibility/:fact/photo',
    operationId: 'uploadAccessibilityPhoto',
    summary: "Attach or replace the photo of one accessibility fact (Admin, the museum's manager): JPG, PNG, GIF or WebP up to 10 MB, re-encoded without metadata",
    auth: 'required',
    bodyType: 'multipart',
    schema: { params, response: { 200: { $ref: 'museums/Museum' }, ...errors } },
    async handler(c) {
      const { id, fact } = c.input.params;
      await loadForManager(c, id);
      const { url } = await storePhoto(c as any);
      let old: string | undefined;
      try {
        // read again after the upload: another fact's change made meanwhile is kept
        const current = await loadForManager(c, id);
        old = current[fact].photo;
        await d.update(id, { accessibility: { ...current, [fact]: { ...current[fact], photo: url } } }, c.user!.id, { source: c.user!.role === 'Admin' ? 'admin' : 'manager' });
      } catch (e) {
        await dropUnreferenced([url]);
        throw e;
      }
      if (old && old !== url) await dropUnreferenced([old]);
      return d.get(id, c.user!.id);
    },
  });

  ctx.routes.add<{ id: number; fact: AccessKey }>({
    method: 'DELETE',
    path: '/api/museums/:id/accessibility/:fact/photo',
    operationId: 'removeAccessibilityPhoto',
    summary: "Remove the photo of one accessibility fact (Admin, the museum's manager); the stored file and its variants go unless a pending suggestion still names it",
    auth: 'required',
    schema: { params, response: { 200: { $ref: 'museums/Museum' }, ...errors } },
    async handler(c) {
      const { id, fact } = c.input.params;
      const current = await loadForManager(c, id);
      const old = current[fact].photo;
      if (!old) throw new HttpError(404, 'This fact has no photo');
      const { photo: _gone, ...rest } = current[fact];
      await d.update(id, { accessibility: { ...current, [fact]: rest } }, c.user!.id, { source: c.user!.role === 'Admin' ? 'admin' : 'manager' });
      await dropUnreferenced([old]);
      return d.get(id, c.user!.id);
    },
  });

  ctx.routes.add<{ id: number; fact: AccessKey }>({
    method: 'POST',
    path: '/api/museums/:id/accessibility/:fact/photo-suggestion',
    operationId: 'suggestAccessibilityPhoto',
    summary: 'Suggest a photo of one accessibility fact (any signed-in member): an edit suggestion for the manager/admin queue carrying the stored photo; optional multipart field reason',
    auth: 'required',
    bodyType: 'multipart',
    status: 201,
    schema: { params, response: { 201: { $ref: 'museums/EditSuggestion' }, ...errors } },
    async handler(c) {
      const { id, fact } = c.input.params;
      const row = await knex('museums').where({ id }).first('id');
      if (!row) throw new HttpError(404, 'Museum not found');
      const { url, fields } = await storePhoto(c as any);
      try {
        const fresh = await knex('museums').where({ id }).first('accessibility');
        const current = normalizeAccessibility(typeof fresh.accessibility === 'string' ? JSON.parse(fresh.accessibility) : fresh.accessibility);
        const reason = typeof fields.reason === 'string' && fields.reason.trim() ? fields.reason.trim().slice(0, 1000) : `Photo: ${fact}`;
        return await d.suggestEdit(c.user!.id, id, { accessibility: { ...current, [fact]: { ...current[fact], photo: url } } }, reason);
      } catch (e) {
        await dropUnreferenced([url]);
        throw e;
      }
    },
  });
}
