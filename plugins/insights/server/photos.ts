/**
 * Photo insights (issue 23): uploads (one image per request, ≤ 15 MB, JPEG/PNG/WebP/HEIF as sharp
 * reads them; re-encoded with orientation applied, EXIF/GPS dropped), the photo part of
 * POST /api/posts (type 'photo': 1–10 own unused uploads with alt text, focal point and the
 * consent to be featured), alt text edits by the author, responsive variants made by a job,
 * a museum's Photos gallery and the featured image its manager picks.
 *
 * Kept apart from index.ts on purpose: the create route calls `checkPhotos` and `attachPhotos`,
 * nothing else of the insight hot paths changes.
 */
import fsp from 'node:fs/promises';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { blurhashOf, imageInfoSql, makeVariants, recordImage, srcsets, toImageInfo, variantUrl } from '../../../core/images.ts';
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';
import type { Viewer } from './social.ts';

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
export const MAX_PHOTOS = 10;
/** The master kept (the "original" of exports): re-encoded, at most this many pixels on its long side. */
const MASTER_MAX = 4096;
const MAX_INPUT_PIXELS = 80_000_000;
export const VARIANTS_JOB = 'insights.photo.variants';

/** An ISO-BMFF file whose `ftyp` names an HEVC-coded HEIF brand (heic, heix, heim, heis, hevc, hevx). */
export function isHevcHeic(input: Buffer): boolean {
  if (input.length < 16 || input.toString('latin1', 4, 8) !== 'ftyp') return false;
  const size = Math.min(input.readUInt32BE(0), input.length, 256);
  const brands = [input.toString('latin1', 8, 12)];
  for (let o = 16; o + 4 <= size; o += 4) brands.push(input.toString('latin1', o, o + 4));
  return brands.some((b) => ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(b));
}

export const PHOTO_MESSAGES = {
  photosRequired: 'Please add at least one photo to your photo insight.',
  tooMany: 'At most 10 photos in one insight.',
  notImage: 'This file is not a photo we can read. Please upload a JPEG, PNG, WebP or HEIC image.',
  heicHevc:
    'This HEIC photo is compressed with HEVC (H.265), which this server cannot decode. Please upload it as JPEG (on an iPhone: Settings › Camera › Formats › Most Compatible, or share it as JPEG).',
  noFile: 'Please choose a photo to upload.',
  tooLarge: 'File too large: at most 15 MB per photo',
  photoUnknown: 'Photo not found',
  photoUsed: 'This photo is already shared in another insight.',
  notYourPost: 'Only the author can edit the photos of an insight.',
  noConsent: 'The author did not allow museums to feature this photo.',
  notMuseumPhoto: 'This photo is not tagged to this museum.',
  notManager: 'Only the museum manager or an admin can choose its featured image.',
  museumNotFound: 'Museum not found',
};

/** Photo fields every answer carries (jsonb copy on the post and the rows agree). */
export interface PhotoPublic {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
  focalPoint: { x: number; y: number } | null;
  blurhash: string | null;
  widths: number[];
}

export interface PhotoInput {
  id: number;
  alt?: string;
  focalPoint?: { x: number; y: number } | null;
  allowFeature?: boolean;
}

export function publicOf(row: any): PhotoPublic {
  return {
    id: Number(row.id),
    url: row.url,
    width: Number(row.width),
    height: Number(row.height),
    alt: row.alt ?? '',
    focalPoint: row.focal_x != null && row.focal_y != null ? { x: Number(row.focal_x), y: Number(row.focal_y) } : null,
    blurhash: row.blurhash ?? null,
    widths: (row.variant_widths ?? []).map(Number),
  };
}

/** A stored jsonb photo as answered: srcsets per format once variants exist. */
export function photoOut(p: PhotoPublic) {
  return { ...p, srcset: p.widths.length ? srcsets(p.url, p.widths) : null };
}

/** What a post row's `photos` column answers. */
export function photosOfRow(raw: unknown): ReturnType<typeof photoOut>[] {
  const list = typeof raw === 'string' ? JSON.parse(raw) : raw;
  return Array.isArray(list) ? list.map((p) => photoOut(p as PhotoPublic)) : [];
}

/** Re-writes the jsonb copy of a post's photos from its rows (in the caller's transaction, rows locked). */
async function syncPostPhotos(trx: Knex, postId: number): Promise<void> {
  const rows = await trx('insights_photos').where({ post_id: postId }).orderBy('position');
  await trx('insights_posts').where({ id: postId }).update({ photos: JSON.stringify(rows.map(publicOf)) });
}

export interface PhotoDeps {
  accounts: () => AccountsApi;
  museums: () => MuseumsApi | undefined;
}

export function registerPhotos(ctx: PluginContext, deps: PhotoDeps) {
  const knex = ctx.db;

  // ---------- variants: one job per photo, by any process (the master is read from storage) ----------
  ctx.jobs.define(VARIANTS_JOB, async (payload: { photoId: number }) => {
    const row = await knex('insights_photos').where({ id: payload.photoId }).first();
    if (!row) return { skipped: 'gone' };
    const made = (await makeVariants(ctx.storage, row.storage_key))!;
    // what the API says beside the photo's URL wherever it travels (a museum's featured image)
    await recordImage(knex, row.storage_key, { width: made.width, height: made.height, widths: made.widths, blurhash: made.blurhash });
    // Locks in the order every other writer takes them, the post before its photos (alt-text edits,
    // posting); the other order deadlocked with an alt-text edit. A photo attached to a post between
    // the first read and its lock is read again.
    let changed = false;
    for (let attempt = 0; ; attempt++) {
      const outcome = await knex.transaction(async (trx) => {
        const seen = await trx('insights_photos').where({ id: row.id }).first('post_id');
        if (!seen) return 'gone' as const;
        if (seen.post_id) await trx('insights_posts').where({ id: seen.post_id }).forUpdate().first('id');
        const cur = await trx('insights_photos').where({ id: row.id }).forUpdate().first();
        if (!cur) return 'gone' as const;
        if (cur.post_id !== seen.post_id) return 'moved' as const;
        await trx('insights_photos').where({ id: row.id }).update({ variant_widths: made.widths, variant_keys: made.keys, blurhash: made.blurhash });
        if (cur.post_id) await syncPostPhotos(trx, cur.post_id);
        return 'done' as const;
      });
      if (outcome === 'moved' && attempt < 3) continue;
      changed = outcome === 'done';
      break;
    }
    if (!changed) for (const k of made.keys) await ctx.storage.delete(k).catch(() => undefined);
    return { widths: made.widths };
  });

  // ---------- upload ----------
  ctx.routes.add({
    method: 'POST',
    path: '/api/posts/photos',
    operationId: 'uploadInsightPhoto',
    summary: 'Upload one photo for a photo insight (multipart field "photo"; JPEG, PNG, WebP or HEIC up to 15 MB; re-encoded, metadata stripped)',
    auth: 'required',
    bodyType: 'multipart',
    status: 201,
    schema: { response: { 201: { $ref: 'insights/InsightPhotoUpload' }, 400: { $ref: 'shared/Error' }, 413: { $ref: 'shared/Error' } } },
    async handler(c) {
      const me = c.user!;
      if (me.restricted) throw new HttpError(403, 'Your account is restricted from posting.');
      const parsed = await ctx.uploads.parse(c as any, { maxFileSize: MAX_PHOTO_BYTES, maxFiles: 1, fileFields: ['photo', 'file'], tooLargeMessage: PHOTO_MESSAGES.tooLarge });
      const file = parsed.files[0];
      try {
        if (!file || file.size === 0) throw new HttpError(400, PHOTO_MESSAGES.noFile);
        const input = await fsp.readFile(file.path);
        let meta: Metadata;
        try {
          meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
        } catch {
          throw new HttpError(isHevcHeic(input) ? 415 : 400, isHevcHeic(input) ? PHOTO_MESSAGES.heicHevc : PHOTO_MESSAGES.notImage);
        }
        // an HEIF container whose picture is HEVC (iPhones' HEIC): sharp's libheif reads the
        // container but has no HEVC decoder (patents): say so, as unsupported media, not "not a photo"
        if (meta.format === 'heif' && meta.compression === 'hevc') throw new HttpError(415, PHOTO_MESSAGES.heicHevc);
        if (!meta.format || !['jpeg', 'png', 'webp', 'heif'].includes(meta.format) || !meta.width || !meta.height) throw new HttpError(400, PHOTO_MESSAGES.notImage);
        if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new HttpError(400, 'The image has too many pixels');
        let master: { data: Buffer; info: OutputInfo };
        try {
          // orientation applied, sRGB, every metadata block (EXIF, GPS, XMP, comments) left behind
          master = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
            .rotate()
            .resize(MASTER_MAX, MASTER_MAX, { fit: 'inside', withoutEnlargement: true })
            .jpeg({ quality: 88, mozjpeg: true })
            .toBuffer({ resolveWithObject: true });
        } catch {
          if (isHevcHeic(input)) throw new HttpError(415, PHOTO_MESSAGES.heicHevc);
          throw new HttpError(400, PHOTO_MESSAGES.notImage);
        }
        const blurhash = await blurhashOf(master.data);
        const key = ctx.storage.randomKey('insights/photos', 'jpg');
        const url = await ctx.storage.put(key, { buffer: master.data }, 'image/jpeg');
        const [row] = await knex('insights_photos')
          .insert({ user_id: me.id, storage_key: key, url, width: master.info.width, height: master.info.height, size: master.data.length, blurhash })
          .returning('*');
        await ctx.jobs.enqueue(VARIANTS_JOB, { photoId: row.id }, { uniqueKey: `${VARIANTS_JOB}:${row.id}` });
        void sweepUnusedPhotos();
        return { id: row.id, url, width: row.width, height: row.height, size: Number(row.size), blurhash, contentType: 'image/jpeg' };
      } finally {
        await ctx.uploads.cleanup(parsed.files);
      }
    },
  });

  /** Uploads never shared are removed after a day (a few per upload: bounded work). */
  async function sweepUnusedPhotos() {
    try {
      const gone = await knex('insights_photos')
        .whereIn('id', knex('insights_photos').select('id').whereNull('post_id').where('created_at', '<', knex.raw(`now() - interval '1 day'`)).orderBy('created_at').limit(20))
        .whereNull('post_id')
        .del()
        .returning(['storage_key', 'variant_keys']);
      for (const g of gone) for (const k of [g.storage_key, ...(g.variant_keys ?? [])]) await ctx.storage.delete(k).catch(() => undefined);
    } catch (err) {
      ctx.log.warn({ err }, 'sweeping unused photos failed');
    }
  }

  // ---------- the create route's part ----------
  /** Checks a photo insight's photos before its transaction: the author's own unused uploads, 1–10, no repeats. */
  async function checkPhotos(userId: number, list: PhotoInput[] | undefined): Promise<PhotoInput[]> {
    const photos = list ?? [];
    if (!photos.length) throw new HttpError(400, PHOTO_MESSAGES.photosRequired, { errors: [{ path: '/photos', message: PHOTO_MESSAGES.photosRequired }] });
    if (photos.length > MAX_PHOTOS) throw new HttpError(400, PHOTO_MESSAGES.tooMany, { errors: [{ path: '/photos', message: PHOTO_MESSAGES.tooMany }] });
    const ids = photos.map((p) => p.id);
    if (new Set(ids).size !== ids.length) throw new HttpError(400, PHOTO_MESSAGES.photoUsed);
    const rows = await knex('insights_photos').whereIn('id', ids).where({ user_id: userId }).select('id', 'post_id');
    if (rows.length !== ids.length) throw new HttpError(400, PHOTO_MESSAGES.photoUnknown, { errors: [{ path: '/photos', message: PHOTO_MESSAGES.photoUnknown }] });
    if (rows.some((r: any) => r.post_id)) throw new HttpError(409, PHOTO_MESSAGES.photoUsed);
    return photos;
  }

  /** In the create transaction: claims the uploads for the post (409 when another post took one meanwhile) and writes the post's copy. */
  async function attachPhotos(trx: Knex, postId: number, userId: number, photos: PhotoInput[]): Promise<void> {
    let position = 0;
    for (const p of photos) {
      const n = await trx('insights_photos')
        .where({ id: p.id, user_id: userId })
        .whereNull('post_id')
        .update({
          post_id: postId,
          position: position++,
          alt: (p.alt ?? '').trim(),
          focal_x: p.focalPoint ? p.focalPoint.x : null,
          focal_y: p.focalPoint ? p.focalPoint.y : null,
          allow_feature: Boolean(p.allowFeature),
        });
      if (!n) throw new HttpError(409, PHOTO_MESSAGES.photoUsed);
    }
    await syncPostPhotos(trx, postId);
  }

  /**
   * A museum whose featured row for a photo is gone (consent withdrawn, photo deleted) stops
   * showing its image: the museum's featuredImage is cleared when it is still that photo's image.
   */
  async function unfeature(gone: { museum_id: number; image_url: string }[], by: number | null) {
    const m = deps.museums();
    if (!m) return;
    for (const g of gone) {
      const museum = await m.getMuseum(g.museum_id);
      if (museum && museum.featuredImage === g.image_url) await m.updateMuseum(g.museum_id, { featuredImage: null } as any, by);
    }
  }

  // ---------- alt text / focal point / consent to be featured, by the author only ----------
  ctx.routes.add<{ id: number; photoId: number }, unknown, { alt?: string; focalPoint?: { x: number; y: number } | null; allowFeature?: boolean }>({
    method: 'PATCH',
    path: '/api/posts/:id/photos/:photoId',
    operationId: 'updateInsightPhoto',
    summary: "Add or edit a photo's alt text or focal point, or give or withdraw consent to be featured by the museum (a featured photo stops being featured at once): the insight's author only",
    auth: 'required',
    schema: {
      params: { type: 'object', required: ['id', 'photoId'], additionalProperties: false, properties: { id: { $ref: 'shared/Id' }, photoId: { $ref: 'shared/Id' } } },
      body: { $ref: 'insights/UpdateInsightPhotoBody' },
      response: { 200: { $ref: 'insights/InsightPhoto' }, 403: { $ref: 'shared/Error' }, 404: { $ref: 'shared/Error' } },
    },
    async handler(c) {
      const me = c.user!;
      const { id, photoId } = c.input.params;
      const b = c.input.body;
      const out = await knex.transaction(async (trx) => {
        const post = await trx('insights_posts').where({ id }).forUpdate().first('id', 'user_id');
        if (!post) throw new HttpError(404, 'Insight not found');
        if (post.user_id !== me.id) throw new HttpError(403, PHOTO_MESSAGES.notYourPost);
        const changes: Record<string, unknown> = {};
        if (b.alt !== undefined) changes.alt = b.alt.trim();
        if (b.focalPoint !== undefined) {
          changes.focal_x = b.focalPoint ? b.focalPoint.x : null;
          changes.focal_y = b.focalPoint ? b.focalPoint.y : null;
        }
        if (b.allowFeature !== undefined) changes.allow_feature = b.allowFeature;
        const q = trx('insights_photos').where({ id: photoId, post_id: id });
        // the update locks the photo's row: a manager featuring it at this moment (who reads the row
        // FOR SHARE) either finished before, and is undone below, or sees the consent withdrawn
        const [row] = Object.keys(changes).length ? await q.update(changes).returning('*') : [await q.first()];
        if (!row) throw new HttpError(404, PHOTO_MESSAGES.photoUnknown);
        await syncPostPhotos(trx, id);
        const unfeatured = b.allowFeature === false ? await trx('insights_museum_featured').where({ photo_id: photoId }).del().returning(['museum_id', 'image_url']) : [];
        return { row, unfeatured };
      });
      await unfeature(out.unfeatured, me.id);
      return { ...photoOut(publicOf(out.row)), allowFeature: Boolean(out.row.allow_feature) };
    },
  });

  // ---------- museum gallery and featured image ----------
  const museumParams = { type: 'object', required: ['museumId'], additionalProperties: false, properties: { museumId: { $ref: 'shared/Id' } } };

  ctx.routes.add<{ museumId: number }, { limit: number; before?: number }>({
    method: 'GET',
    path: '/api/museums/:museumId/photos',
    operationId: 'listMuseumPhotos',
    summary: "A museum's Photos tab: photos of members' photo insights tagged to it, newest first (accounts' privacy rule in the statement)",
    auth: 'optional',
    schema: {
      params: museumParams,
      query: { $ref: 'insights/MuseumPhotosQuery' },
      response: { 200: { $ref: 'insights/MuseumPhotoPage' } },
    },
    async handler(c) {
      const { museumId } = c.input.params;
      const { limit, before } = c.input.query;
      const acc = deps.accounts();
      const canView = acc.sql.canViewContent(c.user, 'p.user_id').toSQL();
      const cols = Object.fromEntries(Object.entries(acc.summaryColumns).map(([k, v]) => [`u_${k}`, v]));
      const q = knex('insights_photos as ph')
        .join('insights_posts as p', 'p.id', 'ph.post_id')
        .join('users', 'users.id', 'p.user_id')
        .where('p.museum_id', museumId)
        .where('p.type', 'photo')
        .whereRaw(canView.sql, canView.bindings as any[])
        .select('ph.*', { post_created_at: 'p.created_at', sensitive: 'p.sensitive' })
        .select(cols)
        // the author's avatar (credit): its made widths and placeholder, in this statement
        .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'u_profileImageInfo']))
        .orderBy('ph.id', 'desc')
        .limit(limit + 1);
      if (before) q.where('ph.id', '<', before);
      const rows = await q;
      const page = rows.slice(0, limit);
      const manage = c.user ? await deps.museums()?.canManage(c.user, museumId) : false;
      return {
        items: page.map((r: any) => ({
          ...photoOut(publicOf(r)),
          postId: r.post_id,
          sensitive: Boolean(r.sensitive),
          allowFeature: Boolean(r.allow_feature),
          user: userOf(r),
          createdAt: new Date(r.post_created_at).toISOString(),
        })),
        nextBefore: rows.length > limit ? Number(page[page.length - 1].id) : null,
        canFeature: Boolean(manage),
      };
    },
  });

  ctx.routes.add<{ museumId: number }>({
    method: 'GET',
    path: '/api/museums/:museumId/featured-photo',
    operationId: 'getMuseumFeaturedPhoto',
    summary: "The member photo a museum features, with its author's credit (null when none)",
    auth: 'optional',
    schema: { params: museumParams, response: { 200: { $ref: 'insights/MuseumFeaturedPhoto' } } },
    async handler(c) {
      return { photo: await featuredOf(c.input.params.museumId, c.user) };
    },
  });

  ctx.routes.add<{ museumId: number }, unknown, { photoId: number | null }>({
    method: 'PUT',
    path: '/api/museums/:museumId/featured-photo',
    operationId: 'setMuseumFeaturedPhoto',
    summary: "Feature a member's photo on a museum (its manager or an Admin; only a photo its author allowed to be featured), or none",
    auth: 'required',
    schema: {
      params: museumParams,
      body: { $ref: 'insights/SetFeaturedPhotoBody' },
      response: { 200: { $ref: 'insights/MuseumFeaturedPhoto' }, 400: { $ref: 'shared/Error' }, 403: { $ref: 'shared/Error' }, 404: { $ref: 'shared/Error' } },
    },
    async handler(c) {
      const me = c.user!;
      const { museumId } = c.input.params;
      const m = deps.museums();
      const museum = m ? await m.getMuseum(museumId) : null;
      if (!m || !museum) throw new HttpError(404, PHOTO_MESSAGES.museumNotFound);
      if (!(await m.canManage(me, museumId))) throw new HttpError(403, PHOTO_MESSAGES.notManager);
      const photoId = c.input.body.photoId;
      if (photoId == null) {
        const cur = await knex('insights_museum_featured').where({ museum_id: museumId }).del().returning('image_url');
        if (cur.length && museum.featuredImage === cur[0].image_url) await m.updateMuseum(museumId, { featuredImage: null } as any, me.id);
        return { photo: null };
      }
      const canView = deps.accounts().sql.canView(me, 'p.user_id').toSQL();
      const imageUrl = await knex.transaction(async (trx) => {
        // FOR SHARE of the photo: its author withdrawing consent (PATCH) waits for this, or this for it
        const row = await trx('insights_photos as ph')
          .join('insights_posts as p', 'p.id', 'ph.post_id')
          .where('ph.id', photoId)
          .whereRaw(canView.sql, canView.bindings as any[])
          .forShare('ph')
          .first('ph.*', 'p.museum_id');
        if (!row) throw new HttpError(404, PHOTO_MESSAGES.photoUnknown);
        if (row.museum_id !== museumId) throw new HttpError(400, PHOTO_MESSAGES.notMuseumPhoto);
        if (!row.allow_feature) throw new HttpError(403, PHOTO_MESSAGES.noConsent);
        // the museum's image is the largest variant up to 1280 px (its smaller ones and the AVIF/WebP
        // copies exist beside it: pages derive a srcset from the name), the master while none is made
        const widths: number[] = (row.variant_widths ?? []).map(Number);
        const best = widths.filter((w) => w <= 1280).pop() ?? widths[0];
        const url: string = best ? variantUrl(row.url, best, 'jpg') : row.url;
        await trx.raw(
          `insert into insights_museum_featured (museum_id, photo_id, image_url, set_by) values (?, ?, ?, ?)
           on conflict (museum_id) do update set photo_id = excluded.photo_id, image_url = excluded.image_url, set_by = excluded.set_by, set_at = now()`,
          [museumId, photoId, url, me.id],
        );
        return url;
      });
      await m.updateMuseum(museumId, { featuredImage: imageUrl } as any, me.id);
      // consent withdrawn between the featured row and the museum's image: the withdrawal removed
      // the row (and found the museum not yet showing it), so the image just set goes again
      if (!(await knex('insights_museum_featured').where({ museum_id: museumId, photo_id: photoId }).first('museum_id'))) {
        await unfeature([{ museum_id: museumId, image_url: imageUrl }], me.id);
      }
      return { photo: await featuredOf(museumId, me) };
    },
  });

  async function featuredOf(museumId: number, viewer: Viewer | undefined) {
    const acc = deps.accounts();
    const cols = Object.fromEntries(Object.entries(acc.summaryColumns).map(([k, v]) => [`u_${k}`, v]));
    const r = await knex('insights_museum_featured as f')
      .join('insights_photos as ph', 'ph.id', 'f.photo_id')
      .join('insights_posts as p', 'p.id', 'ph.post_id')
      .join('users', 'users.id', 'p.user_id')
      .where('f.museum_id', museumId)
      .where('ph.allow_feature', true)
      .first('ph.*', cols, knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'u_profileImageInfo']));
    if (!r) return null;
    void viewer;
    return { ...photoOut(publicOf(r)), postId: r.post_id, user: userOf(r) };
  }

  /** After insights are deleted (their photos cascade): museums featuring one of them stop showing it. */
  async function clearOrphanedFeatures() {
    const gone = await knex('insights_museum_featured').whereNull('photo_id').del().returning(['museum_id', 'image_url']);
    const m = deps.museums();
    for (const f of gone) {
      try {
        const museum = await m?.getMuseum(f.museum_id);
        if (museum && museum.featuredImage === f.image_url) await m!.updateMuseum(f.museum_id, { featuredImage: null } as any, null);
      } catch (err) {
        ctx.log.warn({ err }, 'could not clear a featured photo');
      }
    }
  }
  ctx.events.on('insights.post.deleted', async () => {
    await clearOrphanedFeatures();
  });

  /** Stored files (masters and variants) of the photos of these posts: read before the posts go (their rows cascade). */
  async function filesOfPosts(db: Knex, postIds: number[]): Promise<string[]> {
    if (!postIds.length) return [];
    const rows = await db('insights_photos').whereIn('post_id', postIds).select('storage_key', 'variant_keys');
    return rows.flatMap((r: any) => [r.storage_key, ...(r.variant_keys ?? [])]);
  }
  async function removeFiles(keys: string[]) {
    for (const k of keys) await ctx.storage.delete(k).catch(() => undefined);
  }
  /** Account deletion: the member's photo uploads not shared in an insight, with their files. */
  async function purgeUser(userId: number) {
    const gone = await knex('insights_photos').where({ user_id: userId }).del().returning(['storage_key', 'variant_keys']);
    await removeFiles(gone.flatMap((r: any) => [r.storage_key, ...(r.variant_keys ?? [])]));
  }

  return { checkPhotos, attachPhotos, clearOrphanedFeatures, filesOfPosts, removeFiles, purgeUser };
}

function userOf(r: any) {
  return {
    id: Number(r.u_id),
    slug: r.u_slug,
    username: r.u_username,
    firstName: r.u_firstName ?? '',
    lastName: r.u_lastName ?? '',
    profileImageUrl: r.u_profileImageUrl ?? null,
    profileImageInfo: toImageInfo(r.u_profileImageInfo),
    role: r.u_role,
  };
}

/** Keys of photo files some row references (the storage sweep asks). */
export async function referencedPhotoKeys(knex: Knex, keys: string[]): Promise<string[]> {
  if (!keys.length) return [];
  const masters = (await knex('insights_photos').whereIn('storage_key', keys).pluck('storage_key')) as string[];
  const variants = (await knex('insights_photos').whereRaw('variant_keys && ?::text[]', [keys]).pluck('variant_keys')) as string[][];
  const wanted = new Set(keys);
  return [...masters, ...variants.flat().filter((k) => wanted.has(k))];
}
