import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
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

/**
 * Multipart uploads streamed to temporary files (never buffered whole), with size limits
 * enforced while streaming, and image re-encoding with sharp (metadata stripped).
 */
export class Uploads {
  readonly tmpDir: string;
  constructor(dataDir: string, private storage: Storage) {
    this.tmpDir = path.join(dataDir, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  parse(ctx: Koa.Context, limits: MultipartLimits): Promise<ParsedMultipart> {
    const type = ctx.get('content-type');
    if (!/^multipart\/form-data/i.test(type)) {
      return Promise.reject(new HttpError(400, 'Expected a multipart/form-data upload'));
    }
    return new Promise((resolve, reject) => {
      let bb: Busboy.Busboy;
      try {
        bb = Busboy({
          headers: ctx.req.headers,
          limits: { fileSize: limits.maxFileSize, files: limits.maxFiles ?? 1, fields: 50, fieldSize: limits.maxFieldSize ?? 64 * 1024 },
        });
      } catch {
        reject(new HttpError(400, 'Malformed multipart upload'));
        return;
      }
      const fields: Record<string, string> = {};
      const files: UploadedFile[] = [];
      const writes: Promise<void>[] = [];
      let failure: HttpError | null = null;
      const fail = (e: HttpError) => {
        if (!failure) failure = e;
      };
      bb.on('field', (name, value) => {
        fields[name] = value;
      });
      bb.on('file', (field, stream, info) => {
        if (limits.fileFields && !limits.fileFields.includes(field)) {
          stream.resume();
          fail(new HttpError(400, `Unexpected file field '${field}'`));
          return;
        }
        const tmp = path.join(this.tmpDir, crypto.randomBytes(16).toString('hex'));
        const out = fs.createWriteStream(tmp);
        const rec: UploadedFile = { field, filename: info.filename ?? '', declaredType: info.mimeType ?? '', path: tmp, size: 0 };
        stream.on('data', (d: Buffer) => {
          rec.size += d.length;
        });
        stream.on('limit', () => {
          fail(new HttpError(413, limits.tooLargeMessage ?? `File too large: at most ${Math.round(limits.maxFileSize / 1024 / 1024)} MB`));
        });
        writes.push(
          new Promise((res) => {
            out.on('finish', () => res());
            out.on('error', () => {
              fail(new HttpError(500, 'Could not store the upload'));
              res();
            });
          }),
        );
        stream.pipe(out);
        files.push(rec);
      });
      bb.on('filesLimit', () => fail(new HttpError(413, `Too many files: at most ${limits.maxFiles ?? 1}`)));
      bb.on('error', () => fail(new HttpError(400, 'Malformed multipart upload')));
      bb.on('close', async () => {
        await Promise.all(writes);
        if (failure) {
          await Promise.all(files.map((f) => fsp.rm(f.path, { force: true })));
          reject(failure);
        } else resolve({ fields, files });
      });
      ctx.req.on('aborted', () => fail(new HttpError(400, 'Upload aborted')));
      ctx.req.pipe(bb);
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
    let meta: Metadata;
    try {
      meta = await sharp(file.path, { limitInputPixels, failOn: 'error' }).metadata();
    } catch {
      throw invalid;
    }
    if (!meta.format || !IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) throw invalid;
    if (meta.width * meta.height > limitInputPixels) throw new HttpError(400, 'The image has too many pixels');
    const encode = (w: number, h: number) =>
      sharp(file.path, { limitInputPixels, failOn: 'error' })
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
    return { url, key, width: main.info.width, height: main.info.height, thumbnailUrl };
  }
}
