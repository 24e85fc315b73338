import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type Koa from 'koa';
import { S3Client, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  type Storage,
  UPLOADS_PREFIX,
  IMMUTABLE_CACHE,
  UPLOADS_CSP,
  checkKey,
  checkPrefix,
  keyFromUploadsUrl,
  isPrivateKey,
  randomStorageKey,
  servedType,
} from './storage.ts';

export interface S3StorageOptions {
  /** e.g. http://127.0.0.1:9000 (MinIO), https://<account>.r2.cloudflarestorage.com; unset: AWS */
  endpoint?: string | null;
  bucket: string;
  region?: string;
  accessKeyId?: string | null;
  secretAccessKey?: string | null;
  /** bucket in the path (MinIO, s3rver, most self-hosted stores) rather than in the host name */
  forcePathStyle?: boolean;
  /** where the bucket's objects are publicly served (CDN), e.g. https://media.example.org: /uploads/<key> redirects there */
  mediaPublicUrl?: string | null;
}

function notFound(e: any): boolean {
  const status = e?.$metadata?.httpStatusCode;
  return status === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
}

/**
 * Uploads in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2). Rows keep the same
 * /uploads/<key> URLs as on local disk, so moving the files to a bucket or putting a CDN in front
 * (mediaPublicUrl) changes no stored URL: /uploads/<key> streams the object through the app, or
 * redirects to mediaPublicUrl/<key> when set.
 *
 * Files are streamed to the bucket (multipart for large ones), never read whole into memory, with
 * their content type and a year of immutable caching (keys are random and never reused).
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly publicBase: string | null;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.publicBase = opts.mediaPublicUrl ? opts.mediaPublicUrl.replace(/\/+$/, '') : null;
    this.client = new S3Client({
      endpoint: opts.endpoint || undefined,
      region: opts.region || 'us-east-1',
      forcePathStyle: !!opts.forcePathStyle,
      credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
      // Checksums only where the S3 API requires them: several S3-compatible stores (older MinIO,
      // Ceph, s3rver) reject the CRC32 trailers newer SDKs send by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  close(): void {
    this.client.destroy();
  }

  async put(key: string, source: { path: string } | { buffer: Buffer }, contentType: string): Promise<string> {
    if ('buffer' in source) await this.upload(key, source.buffer, contentType);
    else {
      try {
        await this.copyFromFile(key, source.path, contentType);
      } finally {
        // like a move on disk: the temporary file is gone once stored (or once storing failed)
        await fsp.rm(source.path, { force: true });
      }
    }
    return this.url(key);
  }

  /** Streams a local file into the bucket under `key`; the file stays. */
  async copyFromFile(key: string, file: string, contentType: string): Promise<void> {
    const body = fs.createReadStream(file);
    try {
      await this.upload(key, body, contentType);
    } finally {
      body.destroy();
    }
  }

  private async upload(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    checkKey(key);
    // lib-storage sends small bodies in one PUT and large ones as a multipart upload, part by part (5 MB at a time).
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: IMMUTABLE_CACHE },
    }).done();
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }

  async read(key: string): Promise<Buffer> {
    const obj = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
    return Buffer.from(await (obj.Body as any).transformToByteArray());
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return true;
    } catch (e) {
      if (notFound(e)) return false;
      throw e;
    }
  }

  url(key: string): string {
    return UPLOADS_PREFIX + key;
  }

  keyFromUrl(url: string): string | null {
    return keyFromUploadsUrl(url);
  }

  localPath(_key: string): string | null {
    return null;
  }

  async open(key: string): Promise<NodeJS.ReadableStream> {
    const obj = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
    return obj.Body as Readable;
  }

  randomKey(prefix: string, ext: string): string {
    return randomStorageKey(prefix, ext);
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const clean = checkPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${clean}/`, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, modifiedAt: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Object metadata, or null when there is no such object. */
  async head(key: string): Promise<{ contentType?: string; cacheControl?: string; size?: number } | null> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return { contentType: h.ContentType, cacheControl: h.CacheControl, size: h.ContentLength };
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  }

  /**
   * /uploads/<key>: a redirect to mediaPublicUrl/<key> when set, otherwise the object streamed
   * through (single ranges passed on, for video seeking) with the same headers as from local disk.
   */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (!ctx.path.startsWith(UPLOADS_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
      let key: string;
      try {
        key = checkKey(decodeURIComponent(ctx.path.slice(UPLOADS_PREFIX.length)));
        if (isPrivateKey(key)) throw new Error('private');
      } catch {
        ctx.status = 404;
        ctx.body = { message: 'Not found' };
        return;
      }
      if (this.publicBase) {
        ctx.status = 302;
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.redirect(`${this.publicBase}/${key}`);
        return;
      }
      const type = servedType(key);
      const setHeaders = () => {
        ctx.set('Content-Type', type);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Accept-Ranges', 'bytes');
        ctx.set('Cache-Control', IMMUTABLE_CACHE);
        ctx.set('Content-Security-Policy', UPLOADS_CSP);
        if (type === 'application/octet-stream') ctx.set('Content-Disposition', 'attachment');
      };
      const range = ctx.get('Range');
      const single = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (ctx.method === 'HEAD') {
        const h = await this.head(key);
        if (!h) {
          ctx.status = 404;
          ctx.body = { message: 'Not found' };
          return;
        }
        setHeaders();
        ctx.status = 200;
        ctx.body = Buffer.alloc(0);
        ctx.length = h.size ?? 0;
        return;
      }
      let obj: GetObjectCommandOutput;
      try {
        obj = await this.client.send(
          new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: single && (single[1] || single[2]) ? range : undefined }),
          { abortSignal: abortOnClose(ctx) },
        );
      } catch (e: any) {
        if (notFound(e)) {
          ctx.status = 404;
          ctx.body = { message: 'Not found' };
          return;
        }
        if (e?.$metadata?.httpStatusCode === 416) {
          const h = await this.head(key);
          ctx.status = 416;
          if (h?.size !== undefined) ctx.set('Content-Range', `bytes */${h.size}`);
          return;
        }
        throw e;
      }
      setHeaders();
      if (obj.ContentRange) {
        ctx.status = 206;
        ctx.set('Content-Range', obj.ContentRange);
      } else ctx.status = 200;
      ctx.body = obj.Body as Readable;
      if (obj.ContentLength !== undefined) ctx.length = obj.ContentLength;
    };
  }
}

/** Stops reading from the bucket when the client goes away. */
function abortOnClose(ctx: Koa.Context): AbortSignal {
  const ac = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ac.abort();
  });
  return ac.signal;
}
