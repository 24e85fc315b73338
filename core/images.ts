/**
 * Responsive variants of stored images: for a stored master image, 320/640/1280/2048 px wide
 * copies in AVIF, WebP and JPEG (never wider than the master), stored next to it as
 * `<master>_w<width>.<ext>`, and a BlurHash placeholder. Made by background jobs (sharp is
 * CPU-heavy: one image at a time per process); pages build `srcset` from the widths with
 * `variantUrl()`, so a row only keeps the list of widths. What was made for each master is recorded
 * in core_images (`recordImage`), and detail answers carry it beside the image's URL
 * (`describeImages` / `withImageInfo`: schema shared/ImageInfo), so pages offer exactly the widths
 * that exist, at the right size, with a BlurHash placeholder.
 */
import sharp from 'sharp';
import { encode as encodeBlurhash } from 'blurhash';
import type { Knex } from 'knex';
import type { Storage } from './storage.ts';

export const VARIANT_WIDTHS = [320, 640, 1280, 2048] as const;
export const VARIANT_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

const CONTENT_TYPES: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

/** The widths made for a master `width` px wide: each listed width below it, and the master's own width (capped at 2048). */
export function variantWidths(width: number): number[] {
  const out: number[] = VARIANT_WIDTHS.filter((w) => w < width);
  const top = Math.min(width, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]);
  if (!out.includes(top)) out.push(top);
  return out;
}

/** The storage key of one variant of a master key ('insights/photos/ab12.jpg' → 'insights/photos/ab12_w640.webp'). */
export function variantKey(masterKey: string, width: number, format: VariantFormat): string {
  return masterKey.replace(/\.[a-z0-9]+$/i, `_w${width}.${format}`);
}

/** The URL of one variant of a master URL (/uploads/… like every stored URL). */
export function variantUrl(masterUrl: string, width: number, format: VariantFormat): string {
  return masterUrl.replace(/\.[a-z0-9]+$/i, `_w${width}.${format}`);
}

/** `srcset` strings per format for a master URL and its made widths. */
export function srcsets(masterUrl: string, widths: number[]): Record<VariantFormat, string> {
  const out = {} as Record<VariantFormat, string>;
  for (const f of VARIANT_FORMATS) out[f] = widths.map((w) => `${variantUrl(masterUrl, w, f)} ${w}w`).join(', ');
  return out;
}

/** A BlurHash (4×3 components) of an image, from a 32 px copy. */
export async function blurhashOf(input: Buffer): Promise<string> {
  const { data, info } = await sharp(input, { failOn: 'none' }).resize(32, 32, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return encodeBlurhash(new Uint8ClampedArray(data), info.width, info.height, 4, 3);
}

export interface MadeVariants {
  widths: number[];
  keys: string[];
  width: number;
  height: number;
  blurhash: string;
}

/**
 * Makes and stores every variant of a stored master image. The master is read from storage (local
 * disk or the bucket), so any process may run the job. Re-running overwrites the same keys.
 */
export async function makeVariants(storage: Storage, masterKey: string, opts: { onStored?: (key: string) => void; skipIfMade?: boolean } = {}): Promise<MadeVariants | null> {
  const input = await storage.read(masterKey);
  const meta = await sharp(input, { failOn: 'none' }).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) throw new Error(`not an image: ${masterKey}`);
  const widths = variantWidths(width);
  // the widest JPEG is stored last: when it exists, every variant does
  if (opts.skipIfMade && (await storage.exists(variantKey(masterKey, widths[widths.length - 1], 'jpg')))) return null;
  const keys: string[] = [];
  for (const w of widths) {
    const base = sharp(input, { failOn: 'none' }).rotate().resize({ width: w, withoutEnlargement: true });
    const encoded: Record<VariantFormat, Promise<Buffer>> = {
      avif: base.clone().avif({ quality: 50, effort: 2 }).toBuffer(),
      webp: base.clone().webp({ quality: 72 }).toBuffer(),
      jpg: base.clone().jpeg({ quality: 78, mozjpeg: true, progressive: true }).toBuffer(),
    };
    for (const f of VARIANT_FORMATS) {
      const key = variantKey(masterKey, w, f);
      await storage.put(key, { buffer: await encoded[f] }, CONTENT_TYPES[f]);
      keys.push(key);
      opts.onStored?.(key);
    }
  }
  return { widths, keys, width, height, blurhash: await blurhashOf(input) };
}

/**
 * The job making the variants of one stored image, queued at upload (Uploads.processImage,
 * Uploads.queueVariants). Rows keep naming the master; the detail answers say which widths exist
 * (imageInfo, from core_images), and lists still derive the srcset from the URL (web ResponsiveImage
 * storedSrcsets), falling back to the master while variants are missing.
 */
export const IMAGE_VARIANT_JOB = 'core.images.variant';

/**
 * What the API tells about a stored image beside its URL (`describeImages`): the master's size, the
 * widths whose variants exist (each in AVIF, WebP and JPEG: `<master>_w<width>.<format>`) and a
 * BlurHash placeholder. Null (or absent) while the variants are not made: pages show the master.
 */
export interface ImageInfo {
  width: number;
  height: number;
  widths: number[];
  blurhash: string | null;
}

/** Remembers what `makeVariants` made for a master key (core_images), for `describeImages`. */
export async function recordImage(knex: Knex, key: string, info: ImageInfo): Promise<void> {
  await knex('core_images')
    .insert({ key, width: info.width, height: info.height, widths: info.widths, blurhash: info.blurhash, made_at: knex.fn.now() })
    .onConflict('key')
    .merge();
}

/**
 * The size, widths and placeholder of an image whose variants exist already (made before
 * core_images, or by another process): read from the master and the variants' keys.
 */
async function infoOfMade(storage: Storage, key: string): Promise<ImageInfo | null> {
  const input = await storage.read(key);
  const meta = await sharp(input, { failOn: 'none' }).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!width || !height) return null;
  const widths: number[] = [];
  for (const w of variantWidths(width)) if (await storage.exists(variantKey(key, w, 'jpg'))) widths.push(w);
  return { width, height, widths, blurhash: await blurhashOf(input) };
}

/** Runs IMAGE_VARIANT_JOB: a master already gone (upload abandoned, image replaced) is skipped. With `knex`, what was made is recorded (core_images). */
export async function variantsOfStored(storage: Storage, key: string, knex?: Knex): Promise<{ widths?: number[]; skipped?: string }> {
  if (!(await storage.exists(key))) return { skipped: 'gone' };
  const made = await makeVariants(storage, key, { skipIfMade: true });
  if (knex) {
    const info = made ? { width: made.width, height: made.height, widths: made.widths, blurhash: made.blurhash } : await infoOfMade(storage, key);
    if (info) await recordImage(knex, key, info);
  }
  return made ? { widths: made.widths } : { skipped: 'made' };
}

/** A variant's URL or key (`…_w640.webp`) → its master's (`….jpg`); anything else unchanged. */
export function masterOf(urlOrKey: string): string {
  return urlOrKey.replace(/_w\d+\.(avif|webp|jpg)$/i, '.jpg');
}

/**
 * The ImageInfo of each stored image among `urls` (URLs as the API gives them: a master or one of
 * its variants; external URLs and unknown images are left out), in one query: URL → info. The
 * widths answer which variants exist, so a page never asks for one that does not.
 */
export async function describeImages(knex: Knex, storage: Pick<Storage, 'keyFromUrl'>, urls: Array<string | null | undefined>): Promise<Map<string, ImageInfo>> {
  const keyOf = new Map<string, string>();
  for (const u of urls) {
    if (!u || keyOf.has(u)) continue;
    const key = storage.keyFromUrl(masterOf(u));
    if (key) keyOf.set(u, key);
  }
  const out = new Map<string, ImageInfo>();
  if (!keyOf.size) return out;
  const rows: Array<{ key: string; width: number; height: number; widths: number[]; blurhash: string | null }> = await knex('core_images')
    .whereIn('key', [...new Set(keyOf.values())])
    .select('key', 'width', 'height', 'widths', 'blurhash');
  const byKey = new Map(rows.map((r) => [r.key, r]));
  for (const [u, k] of keyOf) {
    const r = byKey.get(k);
    if (r) out.set(u, { width: r.width, height: r.height, widths: [...r.widths].map(Number).sort((a, b) => a - b), blurhash: r.blurhash });
  }
  return out;
}

/**
 * Deleting a stored master image also deletes its responsive variants (`<master>_w<N>.<fmt>`), so a
 * replaced, deleted or erased image (an avatar, a cover, a message photo…) leaves no copy behind;
 * the widths are the master's (read before it goes), else the standard ones. Variant and thumbnail
 * keys are deleted alone; with `knex`, the image's core_images row too. Applied once to the app's
 * storage (core/app.ts).
 */
export function deletingVariants(storage: Storage, knex?: Knex): Storage {
  const del = storage.delete.bind(storage);
  storage.delete = async (key: string) => {
    // what the API told of it (its size, widths and placeholder) goes with it
    if (knex && !/_(w\d+|thumb)\.[a-z]+$/i.test(key)) await knex('core_images').where({ key }).del().catch(() => undefined);
    if (/\.(jpe?g|png|webp)$/i.test(key) && !/_(w\d+|thumb)\.[a-z]+$/i.test(key)) {
      let widths: number[] = [...VARIANT_WIDTHS];
      try {
        const meta = await sharp(await storage.read(key), { failOn: 'none' }).metadata();
        const w = meta.autoOrient?.width ?? meta.width;
        if (w) widths = variantWidths(w);
      } catch {
        // already gone or unreadable: the standard widths
      }
      for (const w of widths) for (const f of VARIANT_FORMATS) await del(variantKey(key, w, f)).catch(() => undefined);
    }
    await del(key);
  };
  return storage;
}

/** The one-off job making variants of every stored image made before variants existed (avatars, meetup photos, posters…). */
export const IMAGE_VARIANTS_JOB = 'core.images.variants';

/**
 * Makes the variants of every image some plugin references (core/uploads.ts referencedImages),
 * skipping those that have them; reports progress (done, total) as it goes. An image that cannot
 * be read is logged and skipped, the rest go on.
 */
export async function backfillVariants(
  uploads: { referencedImages(): AsyncIterable<string> },
  storage: Storage,
  progress: (done: number, total: number) => Promise<void>,
  log?: { warn(o: object, m: string): void },
  knex?: Knex,
): Promise<{ total: number; made: number; skipped: number; failed: number }> {
  const keys: string[] = [];
  for await (const k of uploads.referencedImages()) keys.push(k);
  let made = 0;
  let skipped = 0;
  let failed = 0;
  await progress(0, keys.length);
  for (const [i, key] of keys.entries()) {
    try {
      const r = await makeVariants(storage, key, { skipIfMade: true });
      if (r) made++;
      else skipped++;
      if (knex) {
        const info = r ? { width: r.width, height: r.height, widths: r.widths, blurhash: r.blurhash } : await infoOfMade(storage, key);
        if (info) await recordImage(knex, key, info);
      }
    } catch (err) {
      failed++;
      log?.warn({ err, key }, 'could not make the variants of a stored image');
    }
    if ((i + 1) % 5 === 0 || i + 1 === keys.length) await progress(i + 1, keys.length);
  }
  return { total: keys.length, made, skipped, failed };
}

/**
 * `obj` with `infoField` set to the ImageInfo of its image at `urlField` (null when none is known:
 * an external image, or variants not made yet): what a detail route answers beside an image URL.
 */
export async function withImageInfo<T extends object, F extends string>(
  knex: Knex,
  storage: Pick<Storage, 'keyFromUrl'>,
  obj: T,
  urlField: keyof T & string,
  infoField: F,
): Promise<T & Record<F, ImageInfo | null>> {
  const url = obj[urlField] as unknown;
  const info = typeof url === 'string' && url ? ((await describeImages(knex, storage, [url])).get(url) ?? null) : null;
  return { ...obj, [infoField]: info } as T & Record<F, ImageInfo | null>;
}

/** An ImageInfo as read from SQL (imageInfoSql: JSON text or an object), widths ascending; null when absent. */
export function toImageInfo(value: unknown): ImageInfo | null {
  if (value == null) return null;
  const v = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<ImageInfo> | null;
  if (!v || typeof v.width !== 'number' || typeof v.height !== 'number' || !Array.isArray(v.widths)) return null;
  return { width: v.width, height: v.height, widths: v.widths.map(Number).sort((a, b) => a - b), blurhash: v.blurhash ?? null };
}

/**
 * A scalar subquery for a hot path that must not spend a statement more (user summaries): the
 * ImageInfo (as JSON, read it with toImageInfo) of the stored image whose URL (/uploads/<key>, a
 * master or one of its variants, like describeImages takes) is in the column `urlColumn` of the
 * surrounding statement; null for an external URL or before the variants are made.
 */
export function imageInfoSql(knex: Knex, urlColumn: string): Knex.Raw {
  return knex.raw(
    `(select json_build_object('width', ci.width, 'height', ci.height, 'widths', ci.widths, 'blurhash', ci.blurhash) from core_images ci
      where ?? like '/uploads/%' and ci.key = substring(regexp_replace(??, '_w[0-9]+\\.(avif|webp|jpg)$', '.jpg', 'i') from 10))`,
    [urlColumn, urlColumn],
  );
}

/**
 * List and card answers: sets `infoField` on every item to the ImageInfo of its image at
 * `urlField` (null when none is known), for the whole list in one statement (describeImages),
 * never one per item.
 */
export async function withImageInfos<T extends object>(
  knex: Knex,
  storage: Pick<Storage, 'keyFromUrl'>,
  items: T[],
  urlField: string,
  infoField: string,
): Promise<T[]> {
  const urls = items.map((it) => (it as Record<string, unknown>)[urlField]).filter((u): u is string => typeof u === 'string' && u !== '');
  const infos = urls.length ? await describeImages(knex, storage, urls) : new Map<string, ImageInfo>();
  return items.map((it) => {
    const u = (it as Record<string, unknown>)[urlField];
    return { ...it, [infoField]: (typeof u === 'string' && infos.get(u)) || null };
  });
}
