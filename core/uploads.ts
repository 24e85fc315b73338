import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import Busboy from 'busboy';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import type Koa from 'koa';
import { HttpError } from './errors.ts';
import type { Storage } from './storage.ts';

export interface UploadedFile {
  field: string;
  /** the client's name, for display only */
  filename: string;
  /** the client's declared type: never trusted */
  declaredType: string;
  path: string;
  size: number;
}

export interface ParsedMultipart {
  fields: Record<string, string>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  maxFileSize: number;
  maxFiles?: number;
  /** file field names accepted */
  fileFields?: string[];
  /** message for an oversize file, e.g. 'File too large' */
  tooLargeMessage?: string;
  maxFieldSize?: number;
}

export interface ProcessedImage {
  url: string;
  key: string;
  width: number;
  height: number;
  thumbnailUrl?: string;
}

const IMAGE_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp']);
/** A responsive variant's key (core/images.ts variantKey): its master's key without extension, then _w<width>. */
const VARIANT_KEY = /^(.+)_w\d+\.(avif|webp|jpg)$/;

// libvips keeps recently read files open (and keeps some open after a failed load): images are
// handed to sharp as buffers (at most a few MB), so no temporary file stays open once deleted.
sharp.cache({ files: 0 });

/** Allowance for the multipart envelope (boundaries, part headers, small fields) over the files themselves. */
const MULTIPART_OVERHEAD = 1024 * 1024;
/** Stored files no row references are deleted once they are this old (an upload stores its file just before its row). */
export const UNREFERENCED_GRACE_MS = 60 * 60 * 1000;
/** Temporary folders of other processes are only trusted this long without a change. */
const FOREIGN_TMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** One token per process: every app of this process shares its temporary folder. */
const PROCESS_TOKEN = crypto.randomBytes(4).toString('hex');

/**
 * A plugin's stored files: the key prefixes it writes under, and which of a list of keys its rows
 * still reference. The storage sweep only looks under claimed prefixes (so a disabled plugin's
 * files are left alone) and asks every owner about every candidate (a row of one plugin may point
 * at another's file).
 */
export interface StoredFileOwner {
  /** e.g. ['avatars'] or ['insights/videos'] */
  prefixes: string[];
  /** the subset of `keys` some row references (keys as in Storage: 'avatars/ab12….jpg') */
  referenced(keys: string[]): Promise<Iterable<string>>;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === 'EPERM';
  }
}

/**
 * Multipart uploads streamed to temporary files (never buffered whole), with size limits
 * enforced while streaming, and image re-encoding with sharp (metadata stripped).
 *
 * Temporary files live in DATA_DIR/tmp/<host>-<pid>-<token>, one folder per process, so that a
 * process starting next to a running one sweeps only the folders of processes that are gone.
 * An upload that fails or is aborted closes its file and deletes it at once.
 */
export class Uploads {
  readonly tmpRoot: string;
  readonly tmpDir: string;
  private owners: StoredFileOwner[] = [];
  /**
   * Queues the responsive variants (core/images.ts) of a stored image; set by the app to enqueue
   * its variants job. processImage calls it for every image it stores; plugins storing an image
   * themselves (e.g. a video poster) call queueVariants.
   */
  onImageStored: ((key: string) => Promise<unknown>) | null = null;
  constructor(dataDir: string, private storage: Storage) {
    this.tmpRoot = path.join(dataDir, 'tmp');
    this.tmpDir = path.join(this.tmpRoot, `${os.hostname()}-${process.pid}-${PROCESS_TOKEN}`);
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * Deletes what crashed or stopped processes left in the temporary folder: loose files, folders
   * of this host's processes that are gone (or whose pid is now ours), and any folder unchanged
   * for a day. Run at start-up and by the periodic storage sweep.
   */
  async sweepTemporary(): Promise<string[]> {
    const removed: string[] = [];
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(this.tmpRoot, { withFileTypes: true });
    } catch {
      return removed;
    }
    const mine = path.basename(this.tmpDir);
    const host = os.hostname();
    for (const d of entries) {
      if (d.name === mine) continue;
      const full = path.join(this.tmpRoot, d.name);
      let gone = !d.isDirectory();
      if (!gone) {
        const m = /^(.*)-(\d+)-([0-9a-f]+)$/.exec(d.name);
        if (!m) gone = true;
        else if (m[1] === host) gone = Number(m[2]) === process.pid ? m[3] !== PROCESS_TOKEN : !pidAlive(Number(m[2]));
        if (!gone) {
          const st = await fsp.stat(full).catch(() => null);
          gone = !!st && Date.now() - st.mtimeMs > FOREIGN_TMP_MAX_AGE_MS;
        }
      }
      if (gone) {
        await fsp.rm(full, { recursive: true, force: true });
        removed.push(d.name);
      }
    }
    fs.mkdirSync(this.tmpDir, { recursive: true });
    return removed;
  }

  /** Queues the variants of a stored image (a failure to queue is not the upload's failure: the one-off backfill makes them later). */
  async queueVariants(key: string): Promise<void> {
    await this.onImageStored?.(key).catch(() => undefined);
  }

  /** A plugin declares the stored files it owns (see StoredFileOwner). */
  ownFiles(owner: StoredFileOwner): void {
    this.owners.push(owner);
  }

  /**
   * Deletes stored files that no owner's rows reference and that are older than `olderThanMs`
   * (an hour: an upload stores its file a moment before the row that points at it). If an owner
   * cannot answer, nothing more is deleted.
   */
  async sweepStorage(opts: { olderThanMs?: number } = {}): Promise<{ checked: number; deleted: string[] }> {
    const cutoff = Date.now() - (opts.olderThanMs ?? UNREFERENCED_GRACE_MS);
    const prefixes = [...new Set(this.owners.flatMap((o) => o.prefixes.map((p) => p.replace(/^\/+|\/+$/g, ''))))].sort();
    // a prefix inside another claimed prefix is listed with it
    const roots = prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(`${q}/`)));
    const deleted: string[] = [];
    let checked = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const keys = batch;
      batch = [];
      const used = await this.referencedKeys(keys);
      for (const k of keys) {
        if (used.has(k)) continue;
        await this.storage.delete(k);
        deleted.push(k);
      }
    };
    for (const root of roots) {
      for await (const f of this.storage.list(root)) {
        checked++;
        if (f.modifiedAt.getTime() >= cutoff) continue;
        batch.push(f.key);
        if (batch.length >= 500) await flush();
      }
    }
    await flush();
    return { checked, deleted };
  }

  /**
   * Which of `keys` some owner's rows reference. A responsive variant (`<base>_w<N>.<avif|webp|jpg>`,
   * core/images.ts) counts as referenced while its master (`<base>.jpg|png|webp|gif`) is: plugins
   * name their masters, the variants go with them.
   */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const masters = new Map<string, string[]>();
    for (const k of keys) {
      const m = VARIANT_KEY.exec(k);
      if (m) masters.set(k, ['jpg', 'png', 'webp', 'gif'].map((ext) => `${m[1]}.${ext}`));
    }
    const asked = [...new Set([...keys, ...[...masters.values()].flat()])];
    const used = new Set<string>();
    for (const o of this.owners) for (const k of await o.referenced(asked)) used.add(k);
    for (const [k, ms] of masters) if (ms.some((x) => used.has(x))) used.add(k);
    return used;
  }

  /**
   * Every stored image some owner references (under the claimed prefixes), masters only: no
   * variants, no thumbnails. For the one-off job that makes variants of existing images.
   */
  async *referencedImages(): AsyncGenerator<string> {
    const prefixes = [...new Set(this.owners.flatMap((o) => o.prefixes.map((p) => p.replace(/^\/+|\/+$/g, ''))))].sort();
    const roots = prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(`${q}/`)));
    for (const root of roots) {
      let batch: string[] = [];
      const flush = async function* (self: Uploads) {
        const keys = batch;
        batch = [];
        if (!keys.length) return;
        const used = new Set<string>();
        for (const o of self.owners) for (const k of await o.referenced(keys)) used.add(k);
        for (const k of keys) if (used.has(k)) yield k;
      };
      for await (const f of this.storage.list(root)) {
        if (!/\.(jpe?g|png|webp)$/i.test(f.key) || VARIANT_KEY.test(f.key) || /_thumb\.[a-z]+$/i.test(f.key)) continue;
        batch.push(f.key);
        if (batch.length >= 500) yield* flush(this);
      }
      yield* flush(this);
    }
  }

  parse(ctx: Koa.Context, limits: MultipartLimits): Promise<ParsedMultipart> {
    const type = ctx.get('content-type');
    if (!/^multipart\/form-data/i.test(type)) {
      return Promise.reject(new HttpError(400, 'Expected a multipart/form-data upload'));
    }
    const maxFiles = limits.maxFiles ?? 1;
    const tooLarge = () => new HttpError(413, limits.tooLargeMessage ?? `File too large: at most ${Math.round(limits.maxFileSize / 1024 / 1024)} MB`);
    const req = ctx.req;
    // Refused before a byte of the body is read when its declared length is already over the limit.
    const declared = Number(ctx.get('content-length') || NaN);
    if (Number.isFinite(declared) && declared > maxFiles * limits.maxFileSize + MULTIPART_OVERHEAD) {
      // the rest of the body is read and dropped after the answer (core/app.ts, discard-body.ts)
      return Promise.reject(tooLarge());
    }
    if (req.destroyed && !req.complete) return Promise.reject(new HttpError(400, 'Upload aborted'));
    fs.mkdirSync(this.tmpDir, { recursive: true });
    return new Promise((resolve, reject) => {
      let bb: Busboy.Busboy;
      try {
        bb = Busboy({
          headers: req.headers,
          // busboy signals 'limit' when a file reaches fileSize; the limit is inclusive (a file of exactly maxFileSize is fine)
          limits: { fileSize: limits.maxFileSize + 1, files: maxFiles, fields: 50, fieldSize: limits.maxFieldSize ?? 64 * 1024 },
        });
      } catch {
        reject(new HttpError(400, 'Malformed multipart upload'));
        return;
      }
      const fields: Record<string, string> = {};
      const files: UploadedFile[] = [];
      const outs: fs.WriteStream[] = [];
      const parts: NodeJS.ReadableStream[] = [];
      let settled = false;
      const closed = (out: fs.WriteStream) => new Promise<void>((res) => (out.closed ? res() : out.once('close', () => res())));

      /** Stops reading, closes and deletes every temporary file, then refuses the upload. */
      const abort = async (e: HttpError) => {
        if (settled) return;
        settled = true;
        cleanupListeners();
        req.unpipe(bb);
        bb.removeAllListeners('file');
        bb.on('error', () => undefined);
        for (const p of parts) {
          p.unpipe();
          p.resume();
        }
        for (const out of outs) out.destroy();
        // the rest of the body is read and dropped once the refusal is answered (core/app.ts, discard-body.ts)
        await Promise.all(outs.map(closed));
        await Promise.all(files.map((f) => fsp.rm(f.path, { force: true })));
        reject(e);
      };
      const onClose = () => {
        if (!req.complete) void abort(new HttpError(400, 'Upload aborted'));
      };
      const onError = () => void abort(new HttpError(400, 'Upload aborted'));
      const cleanupListeners = () => {
        req.off('close', onClose);
        req.off('error', onError);
      };
      req.on('close', onClose);
      req.on('error', onError);

      bb.on('field', (name, value) => {
        fields[name] = value;
      });
      bb.on('file', (field, stream, info) => {
        if (settled) {
          stream.resume();
          return;
        }
        if (limits.fileFields && !limits.fileFields.includes(field)) {
          stream.resume();
          void abort(new HttpError(400, `Unexpected file field '${field}'`));
          return;
        }
        const tmp = path.join(this.tmpDir, crypto.randomBytes(16).toString('hex'));
        const out = fs.createWriteStream(tmp);
        outs.push(out);
        parts.push(stream);
        const rec: UploadedFile = { field, filename: info.filename ?? '', declaredType: info.mimeType ?? '', path: tmp, size: 0 };
        files.push(rec);
        stream.on('data', (d: Buffer) => {
          rec.size += d.length;
        });
        stream.on('limit', () => void abort(tooLarge()));
        out.on('error', () => void abort(new HttpError(500, 'Could not store the upload')));
        stream.pipe(out);
      });
      bb.on('filesLimit', () => void abort(new HttpError(413, `Too many files: at most ${maxFiles}`)));
      bb.on('error', () => void abort(new HttpError(400, 'Malformed multipart upload')));
      bb.on('close', async () => {
        await Promise.all(outs.map(closed));
        if (settled) return;
        settled = true;
        cleanupListeners();
        if (outs.some((o) => o.errored)) {
          await Promise.all(files.map((f) => fsp.rm(f.path, { force: true })));
          reject(new HttpError(500, 'Could not store the upload'));
        } else resolve({ fields, files });
      });
      req.pipe(bb);
    });
  }

  async cleanup(files: UploadedFile[]): Promise<void> {
    await Promise.all(files.map((f) => fsp.rm(f.path, { force: true })));
  }

  /**
   * Checks that a file really is an image (by content), then re-encodes it with sharp: auto-rotated,
   * resized to fit, metadata (EXIF, GPS) dropped. Throws 400 with `invalidMessage` otherwise.
   */
  async processImage(
    file: { path: string },
    opts: {
      prefix: string;
      width: number;
      height: number;
      fit?: 'cover' | 'inside';
      invalidMessage?: string;
      thumbnail?: { width: number; height: number };
      maxPixels?: number;
    },
  ): Promise<ProcessedImage> {
    const invalid = new HttpError(400, opts.invalidMessage ?? 'The file is not a valid image (JPG, PNG or GIF)');
    const limitInputPixels = opts.maxPixels ?? 40_000_000;
    const input = await fsp.readFile(file.path);
    let meta: Metadata;
    try {
      meta = await sharp(input, { limitInputPixels, failOn: 'error' }).metadata();
    } catch {
      throw invalid;
    }
    if (!meta.format || !IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) throw invalid;
    if (meta.width * meta.height > limitInputPixels) throw new HttpError(400, 'The image has too many pixels');
    const encode = (w: number, h: number) =>
      sharp(input, { limitInputPixels, failOn: 'error' })
        .rotate()
        .resize(w, h, { fit: opts.fit ?? 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer({ resolveWithObject: true });
    let main: { data: Buffer; info: OutputInfo };
    try {
      main = await encode(opts.width, opts.height);
    } catch {
      throw invalid;
    }
    const key = this.storage.randomKey(opts.prefix, 'jpg');
    const url = await this.storage.put(key, { buffer: main.data }, 'image/jpeg');
    let thumbnailUrl: string | undefined;
    if (opts.thumbnail) {
      const thumb = await encode(opts.thumbnail.width, opts.thumbnail.height);
      thumbnailUrl = await this.storage.put(key.replace(/\.jpg$/, '_thumb.jpg'), { buffer: thumb.data }, 'image/jpeg');
    }
    // its variants (320/640/1280/2048 px, AVIF/WebP/JPEG) are made in the background; pages use them once they exist
    await this.queueVariants(key);
    return { url, key, width: main.info.width, height: main.info.height, thumbnailUrl };
  }
}
