import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type Koa from 'koa';

/**
 * Where uploaded files live. Local disk now (DATA_DIR/uploads); an object store can implement the
 * same interface. Keys are random names chosen by the server, never the client's file name.
 */
export interface Storage {
  /** Stores a file from a local path (moved) or a buffer; answers its public URL. */
  put(key: string, source: { path: string } | { buffer: Buffer }, contentType: string): Promise<string>;
  delete(key: string): Promise<void>;
  /** A stored file's bytes (background work on stored images, e.g. responsive variants); throws when absent. */
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  url(key: string): string;
  /** The key of one of our URLs, or null. */
  keyFromUrl(url: string): string | null;
  /** Reads a stored file as a stream (archives of a member's data copy originals byte for byte). */
  open(key: string): Promise<NodeJS.ReadableStream>;
  /** Local path, for tools that need a file (ffprobe); null when not on disk. */
  localPath(key: string): string | null;
  randomKey(prefix: string, ext: string): string;
  /** Every stored file under a key prefix (e.g. 'avatars'), with its last change; for the sweep of unreferenced files. */
  list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Serves GET/HEAD /uploads/<key> (or redirects to where they are served). */
  middleware(): Koa.Middleware;
  /** Releases connections (object stores); called when the app closes. */
  close?(): void;
}

/** Every stored file is named by a random key, so its content never changes: caches may keep it for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** What /uploads answers are allowed to do when opened directly: nothing (no scripts, no plugins, no framing). */
export const UPLOADS_CSP = "default-src 'none'; sandbox; base-uri 'none'; frame-ancestors 'none'";

/** A key as the server makes them (randomKey): throws on anything else, e.g. `..` or a leading slash. */
export function checkKey(key: string): string {
  if (!/^[a-z0-9][a-z0-9/_-]*\.[a-z0-9]+$/i.test(key) || key.includes('..')) throw new Error(`Bad storage key ${key}`);
  return key;
}

/** A key prefix such as 'avatars' or 'insights/videos', without surrounding slashes; throws on anything else. */
export function checkPrefix(prefix: string): string {
  const clean = prefix.replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9][a-z0-9/_-]*$/i.test(clean) || clean.includes('..')) throw new Error(`Bad storage prefix ${prefix}`);
  return clean;
}

/** The key of a /uploads/<key> URL (how every backend names files in rows), or null. */
export function keyFromUploadsUrl(url: string): string | null {
  if (!url.startsWith(UPLOADS_PREFIX)) return null;
  try {
    return checkKey(url.slice(UPLOADS_PREFIX.length));
  } catch {
    return null;
  }
}

export function randomStorageKey(prefix: string, ext: string): string {
  return `${prefix}/${crypto.randomBytes(16).toString('hex')}.${ext.replace(/^\./, '')}`;
}

/** The content type an /uploads answer carries for a key, by extension (allow-list). */
export function servedType(key: string): string {
  return SERVED_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

export const UPLOADS_PREFIX = '/uploads/';

/**
 * Keys under this prefix are never served by /uploads (a member's data archive): the plugin that
 * stores them serves them itself, to their owner only, through `open`.
 */
export const PRIVATE_PREFIX = 'private/';

/** Is this /uploads path a private key (answered 404)? */
export function isPrivateKey(key: string): boolean {
  return key.startsWith(PRIVATE_PREFIX);
}

/** Content types we serve, by extension: anything else is served as an octet stream download. */
const SERVED_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
};

export class LocalDiskStorage implements Storage {
  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, source: { path: string } | { buffer: Buffer }, _contentType: string): Promise<string> {
    const dest = this.file(key);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    if ('buffer' in source) await fsp.writeFile(dest, source.buffer);
    else {
      try {
        await fsp.rename(source.path, dest);
      } catch {
        await fsp.copyFile(source.path, dest);
        await fsp.rm(source.path, { force: true });
      }
    }
    return this.url(key);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  async read(key: string): Promise<Buffer> {
    return fsp.readFile(this.file(key));
  }

  async exists(key: string): Promise<boolean> {
    return fs.existsSync(this.file(key));
  }

  url(key: string): string {
    return UPLOADS_PREFIX + key;
  }

  keyFromUrl(url: string): string | null {
    return keyFromUploadsUrl(url);
  }

  localPath(key: string): string | null {
    return this.file(key);
  }

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const file = this.file(key);
    await fsp.access(file);
    return fs.createReadStream(file);
  }

  randomKey(prefix: string, ext: string): string {
    return randomStorageKey(prefix, ext);
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const clean = checkPrefix(prefix);
    const walk = async function* (dir: string, rel: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (e: any) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return;
        throw e;
      }
      for (const d of entries) {
        const full = path.join(dir, d.name);
        const key = `${rel}/${d.name}`;
        if (d.isDirectory()) yield* walk(full, key);
        else if (d.isFile()) {
          try {
            yield { key, modifiedAt: (await fsp.stat(full)).mtime };
          } catch {
            // deleted meanwhile
          }
        }
      }
    };
    yield* walk(path.join(this.root, clean), clean);
  }

  /** Serves /uploads/* with single-range support (video seeking), nosniff and allow-listed types. */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (!ctx.path.startsWith(UPLOADS_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      let file: string;
      try {
        const key = decodeURIComponent(ctx.path.slice(UPLOADS_PREFIX.length));
        if (isPrivateKey(key)) throw new Error('private');
        file = this.file(key);
      } catch {
        ctx.status = 404;
        ctx.body = { message: 'Not found' };
        return;
      }
      let stat: fs.Stats;
      try {
        stat = await fsp.stat(file);
      } catch {
        ctx.status = 404;
        ctx.body = { message: 'Not found' };
        return;
      }
      const type = servedType(file);
      ctx.set('Content-Type', type);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Accept-Ranges', 'bytes');
      ctx.set('Cache-Control', IMMUTABLE_CACHE);
      ctx.set('Content-Security-Policy', UPLOADS_CSP);
      if (type === 'application/octet-stream') ctx.set('Content-Disposition', 'attachment');
      const range = ctx.get('Range');
      const m = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (m && (m[1] || m[2])) {
        let start = m[1] ? Number(m[1]) : stat.size - Number(m[2]);
        let end = m[1] && m[2] ? Number(m[2]) : stat.size - 1;
        start = Math.max(0, start);
        end = Math.min(end, stat.size - 1);
        if (start > end || start >= stat.size) {
          ctx.status = 416;
          ctx.set('Content-Range', `bytes */${stat.size}`);
          return;
        }
        ctx.status = 206;
        ctx.set('Content-Range', `bytes ${start}-${end}/${stat.size}`);
        answer(ctx, end - start + 1, () => fs.createReadStream(file, { start, end }));
        return;
      }
      ctx.status = 200;
      answer(ctx, stat.size, () => fs.createReadStream(file));
    };
  }
}

/**
 * The body of a file answer. HEAD gets the same status and headers as GET (Content-Type,
 * Content-Length) and no body: an empty buffer, since a null body would make Koa answer 204 and
 * drop the headers, and a read stream nobody reads would hold a file handle open.
 */
function answer(ctx: Koa.Context, length: number, open: () => fs.ReadStream): void {
  if (ctx.method === 'HEAD') {
    ctx.body = Buffer.alloc(0);
    ctx.length = length;
  } else {
    ctx.body = open();
    ctx.length = length;
  }
}

/** The configured storage: local disk under DATA_DIR/uploads unless `storage.driver` is 's3'. */
export async function createStorage(config: { dataDir: string; storage?: { driver: 'local' | 's3'; s3?: any; mediaPublicUrl?: string | null } }): Promise<Storage> {
  if (config.storage?.driver === 's3') {
    // loaded only when used: the AWS SDK is large
    const { S3Storage } = await import('./storage-s3.ts');
    return new S3Storage({ ...config.storage.s3, mediaPublicUrl: config.storage.mediaPublicUrl });
  }
  return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}
