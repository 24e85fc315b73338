/**
 * Upload attack corpus against every upload route of the registry (bodyType 'multipart'):
 * only real images (and videos) are accepted, stored re-encoded without metadata under random
 * names, and served with an allow-listed content type and nosniff.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { sharedApp, type TestApp, type TestClient } from '../testing/index.ts';
import { buildWorld, type World } from './fixtures/world.ts';
import {
  gifJsPolyglot, gpsJpeg, haveFfmpeg, HTML, jpegOfSize, longVideoClaiming, mediaTags, mp4OfSize, mp4WithLocation, noisyJpeg,
  pixelFloodPng, pngWithText, POLYGLOT_MARKER, SCRIPT, SECRET_TEXT, SVG, truncatedJpeg,
} from './fixtures/corpus.ts';

interface Target {
  kind: 'image' | 'video';
  field: string;
  /** per file, inclusive: a file of exactly this size is accepted */
  maxBytes: number;
  /** files one request may carry */
  maxFiles: number;
  tooLarge: number;
  client: (w: World) => TestClient;
  path: (w: World) => string;
  /** the stored file URL(s) in a 2xx answer */
  urls: (body: any) => string[];
}

/** Every multipart route of the registry must be listed here: a new upload route fails the suite. */
const TARGETS: Record<string, Target> = {
  'POST /api/user/profile-image': {
    kind: 'image', field: 'image', maxBytes: 5 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.traveler, path: () => '/api/user/profile-image', urls: (b) => [b.profileImageUrl],
  },
  'POST /api/communities/:id/image': {
    kind: 'image', field: 'image', maxBytes: 5 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.creator, path: (w) => `/api/communities/${w.community.id}/image`, urls: (b) => [b.imageUrl],
  },
  'POST /api/meetups/:meetupId/photos': {
    kind: 'image', field: 'files', maxBytes: 10 * 1024 * 1024, maxFiles: 10, tooLarge: 413,
    client: (w) => w.c.member, path: (w) => `/api/meetups/${w.meetup.id}/photos`, urls: (b) => b.flatMap((p: any) => [p.url, p.thumbnailUrl].filter(Boolean)),
  },
  'POST /api/museum-events/:id/photos': {
    kind: 'image', field: 'files', maxBytes: 10 * 1024 * 1024, maxFiles: 10, tooLarge: 413,
    client: (w) => w.c.member, path: (w) => `/api/museum-events/${w.museumEvent.id}/photos`, urls: (b) => b.flatMap((p: any) => [p.url, p.thumbnailUrl].filter(Boolean)),
  },
  'POST /api/groups/:id/image': {
    kind: 'image', field: 'image', maxBytes: 5 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.creator, path: (w) => `/api/groups/${w.group.id}/image`, urls: (b) => [b.imageUrl],
  },
  'POST /api/meetups/:id/cover': {
    kind: 'image', field: 'image', maxBytes: 10 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.creator, path: (w) => `/api/meetups/${w.meetup.id}/cover`, urls: (b) => [b.imageUrl],
  },
  'POST /api/museum-events/:id/cover': {
    kind: 'image', field: 'image', maxBytes: 10 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.manager, path: (w) => `/api/museum-events/${w.museumEvent.id}/cover`, urls: (b) => [b.imageUrl],
  },
  'POST /api/messages/images': {
    kind: 'image', field: 'files', maxBytes: 10 * 1024 * 1024, maxFiles: 4, tooLarge: 413,
    client: (w) => w.c.member, path: () => '/api/messages/images', urls: (b) => b.flatMap((p: any) => [p.url, p.thumbnailUrl].filter(Boolean)),
  },
  'POST /api/posts/photos': {
    kind: 'image', field: 'photo', maxBytes: 15 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.traveler, path: () => '/api/posts/photos', urls: (b) => [b.url],
  },
  'POST /api/museums/:id/accessibility/:fact/photo': {
    kind: 'image', field: 'photo', maxBytes: 10 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.manager, path: (w) => `/api/museums/${w.museumA.id}/accessibility/stepFreeEntrance/photo`, urls: (b) => [b.accessibility.stepFreeEntrance.photo],
  },
  'POST /api/museums/:id/accessibility/:fact/photo-suggestion': {
    kind: 'image', field: 'photo', maxBytes: 10 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.member, path: (w) => `/api/museums/${w.museumA.id}/accessibility/liftsAllFloors/photo-suggestion`, urls: (b) => [b.suggestedChanges.accessibility.liftsAllFloors.photo],
  },
  'POST /api/posts/video': {
    kind: 'video', field: 'video', maxBytes: 100 * 1024 * 1024, maxFiles: 1, tooLarge: 413,
    client: (w) => w.c.traveler, path: () => '/api/posts/video', urls: (b) => [b.videoUrl, b.posterUrl].filter(Boolean),
  },
};

const ALLOWED_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/webm'];

/** Streams a multipart upload of `size` zero bytes without holding it in memory. */
function streamOversize(app: TestApp, client: TestClient, urlPath: string, field: string, size: number): Promise<{ status: number; text: string }> {
  const boundary = `----quality${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const u = new URL(app.url + urlPath);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length, cookie: client.cookieHeader(), origin: app.url } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (e: any) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: -1, text: e.code }) : reject(e)));
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    req.write(head);
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** Every file under a folder, recursively (the temporary folder holds one folder per process). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath ?? (d as any).path, d.name));
}

/** This process's open file descriptors that point into `dir` (the app runs in the test's process). */
function handlesInto(dir: string): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir + path.sep)) out.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a multipart upload of `size` bytes (zeros), sends `sendBytes` of it, waits until the
 * server has a temporary file for it, then resets the connection.
 */
async function abortMidStream(app: TestApp, client: TestClient, urlPath: string, field: string, size: number, sendBytes: number, tmpRoot: string): Promise<void> {
  const boundary = `----abort${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const u = new URL(app.url + urlPath);
  const before = new Set(filesUnder(tmpRoot));
  const req = http.request({
    host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + 100, cookie: client.cookieHeader(), origin: app.url },
  });
  req.on('error', () => undefined);
  req.on('response', (res) => res.resume());
  req.write(head);
  const chunk = Buffer.alloc(256 * 1024);
  for (let sent = 0; sent < sendBytes; sent += chunk.length) {
    if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
  }
  await until('the server to write the upload to a temporary file', () =>
    filesUnder(tmpRoot).some((f) => !before.has(f) && (fs.statSync(f, { throwIfNoEntry: false })?.size ?? 0) > 0),
  );
  req.destroy();
}

/** Sends only the headers of an upload declaring `contentLength` and answers what the server says before any of the body. */
function headersOnly(app: TestApp, client: TestClient, urlPath: string, contentLength: number): Promise<{ status: number; body: any }> {
  const u = new URL(app.url + urlPath);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=----x', 'content-length': contentLength, cookie: client.cookieHeader(), origin: app.url },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer while the body was still unsent: the server waits to read it'));
    }, 10_000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.flushHeaders();
  });
}

const hasGpsIfd = (exif?: Buffer) => Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))));

describe('quality: upload attack corpus', function () {
  this.timeout(600_000);
  let app: TestApp;
  let w: World;

  before(async () => {
    app = await sharedApp();
    w = await buildWorld(app);
  });

  it('covers every upload route of the registry', () => {
    const multipart = app.routes.filter((r) => app.enabled.has(r.plugin) && r.bodyType === 'multipart').map((r) => `${r.method} ${r.path}`);
    expect(multipart.filter((r) => !TARGETS[r]), 'upload routes without a corpus target in upload-corpus.test.ts').to.deep.equal([]);
    expect(Object.keys(TARGETS).filter((r) => !multipart.includes(r)), 'targets that are not upload routes').to.deep.equal([]);
  });

  for (const [route, t] of Object.entries(TARGETS)) {
    describe(route, () => {
      const send = (name: string, type: string, data: Buffer) => t.client(w).upload(t.path(w), [{ field: t.field, name, type, data }]);

      async function checkStored(urls: string[], kind: 'image' | 'video') {
        expect(urls.length).to.be.above(0);
        for (const url of urls) {
          expect(url, 'a server-chosen random name').to.match(/^\/uploads\/[a-z0-9/_-]*[0-9a-f]{32}(_thumb|_poster)?\.(jpg|png|gif|webp|mp4|webm)$/);
          const r = await app.client().raw('GET', url);
          const bytes = Buffer.from(await r.arrayBuffer());
          expect(r.status).to.equal(200);
          expect(ALLOWED_TYPES).to.include(r.headers.get('content-type'));
          const head = await app.client().raw('HEAD', url);
          expect(head.status, 'HEAD answers as GET').to.equal(200);
          expect(head.headers.get('content-type'), 'HEAD Content-Type').to.equal(r.headers.get('content-type'));
          expect(head.headers.get('content-length'), 'HEAD Content-Length').to.equal(String(bytes.length));
          expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
          expect(bytes.includes(Buffer.from(SECRET_TEXT)), 'metadata text left in the stored file').to.equal(false);
          expect(bytes.includes(Buffer.from(POLYGLOT_MARKER)), 'script payload left in the stored file').to.equal(false);
          if (kind === 'image' || url.endsWith('.jpg')) {
            const meta = await sharp(bytes).metadata();
            expect(meta.format).to.be.oneOf(['jpeg', 'png', 'webp', 'gif']);
            expect(meta.exif, 'EXIF kept').to.equal(undefined);
            expect(hasGpsIfd(meta.exif)).to.equal(false);
            expect(meta.comments ?? []).to.deep.equal([]);
          } else {
            const tags = await mediaTags(bytes);
            expect(Object.keys(tags).filter((k) => /location|title|artist|gps|xyz/.test(k)), JSON.stringify(tags)).to.deep.equal([]);
          }
        }
      }

      it('an upload reset mid-stream closes and deletes its temporary file at once', async () => {
        const tmpRoot = path.join(app.config.dataDir, 'tmp');
        for (let i = 0; i < 2; i++) await abortMidStream(app, t.client(w), t.path(w), t.field, t.maxBytes, Math.min(3 * 1024 * 1024, t.maxBytes / 2), tmpRoot);
        await until('no temporary file and no open handle into the temporary folder', () => filesUnder(tmpRoot).length === 0 && handlesInto(tmpRoot).length === 0).catch(() => {
          throw new Error(`left behind: files ${JSON.stringify(filesUnder(tmpRoot))}, handles ${JSON.stringify(handlesInto(tmpRoot))}`);
        });
        expect((await app.client().get('/api/health')).status).to.equal(200);
      });

      it('a request whose Content-Length is over the limit gets 413 before its body is sent', async () => {
        const r = await headersOnly(app, t.client(w), t.path(w), t.maxFiles * t.maxBytes + 2 * 1024 * 1024);
        expect(r.status, JSON.stringify(r.body)).to.equal(413);
        expect(r.body.message).to.be.a('string');
      });

      if (t.kind === 'image') {
        const refused: Array<[string, string, string, () => Buffer | Promise<Buffer>]> = [
          ['HTML renamed .jpg', 'page.jpg', 'image/jpeg', () => HTML],
          ['SVG with a script', 'drawing.svg', 'image/svg+xml', () => SVG],
          ['SVG renamed .png', 'drawing.png', 'image/png', () => SVG],
          ['script renamed .gif', 'x.gif', 'image/gif', () => SCRIPT],
          ['truncated JPEG', 'cut.jpg', 'image/jpeg', truncatedJpeg],
          ['20000×20000 pixel-flood PNG', 'flood.png', 'image/png', pixelFloodPng],
        ];
        for (const [label, name, type, make] of refused) {
          it(`refuses ${label} (400) and keeps nothing`, async () => {
            const before = filesUnder(path.join(app.config.dataDir, 'tmp')).length;
            const started = Date.now();
            const r = await send(name, type, await make());
            expect(r.status, r.text).to.equal(400);
            expect(r.body.message).to.be.a('string');
            expect(Date.now() - started, 'refused quickly').to.be.below(15000);
            expect(filesUnder(path.join(app.config.dataDir, 'tmp')).length, 'temporary files left').to.be.at.most(before);
            expect((await app.client().get('/api/health')).status).to.equal(200);
          });
        }

        it('a GIF/JavaScript polyglot is either refused or stored re-encoded without the script', async () => {
          const r = await send('poly.gif', 'image/gif', gifJsPolyglot());
          if (r.status === 400) return;
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'image');
        });

        it('a GPS-tagged JPEG is accepted and stored re-encoded, without EXIF or GPS', async () => {
          const input = await gpsJpeg();
          expect(hasGpsIfd((await sharp(input).metadata()).exif), 'the corpus file has GPS').to.equal(true);
          const r = await send('holiday.jpg', 'image/jpeg', input);
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'image');
        });

        it('a PNG with text chunks sent as text/html named .html is judged by its content and stored clean', async () => {
          const r = await send('index.html', 'text/html', pngWithText());
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'image');
        });

        it(`refuses a file over ${t.maxBytes / 1024 / 1024} MB with ${t.tooLarge}`, async () => {
          const r = await streamOversize(app, t.client(w), t.path(w), t.field, t.maxBytes + 1024);
          expect(r.status, r.text).to.equal(t.tooLarge);
        });

        it(`accepts a real JPEG of exactly ${t.maxBytes / 1024 / 1024} MB (the limit is inclusive)`, async () => {
          const data = await jpegOfSize(t.maxBytes);
          expect(data.length).to.equal(t.maxBytes);
          const r = await send('exact.jpg', 'image/jpeg', data);
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'image');
        });

        it('accepts a real JPEG just under the limit', async () => {
          const r = await send('photo.jpg', 'image/jpeg', await noisyJpeg(800, 600));
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'image');
        });
      } else {
        const refused: Array<[string, string, string, () => Buffer | Promise<Buffer>]> = [
          ['HTML renamed .mp4', 'clip.mp4', 'video/mp4', () => HTML],
          ['a GIF renamed .mp4', 'clip.mp4', 'video/mp4', () => gifJsPolyglot()],
          ['a JPEG renamed .webm', 'clip.webm', 'video/webm', noisyJpeg],
          ['SVG renamed .mp4', 'clip.mp4', 'video/mp4', () => SVG],
        ];
        for (const [label, name, type, make] of refused) {
          it(`refuses ${label} (400)`, async () => {
            const r = await send(name, type, await make());
            expect(r.status, r.text).to.equal(400);
          });
        }

        it('refuses a truncated MP4 (400)', async function () {
          if (!haveFfmpeg()) this.skip();
          const v = await mp4WithLocation();
          const r = await send('cut.mp4', 'video/mp4', v.subarray(0, Math.floor(v.length / 3)));
          expect(r.status, r.text).to.equal(400);
        });

        it('a real MP4 with location metadata is accepted and stored without it, served as video/mp4 with nosniff', async function () {
          if (!haveFfmpeg()) this.skip();
          const r = await send('holiday.mov', 'application/octet-stream', await mp4WithLocation());
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'video');
        });

        it(`refuses a file over ${t.maxBytes / 1024 / 1024} MB with ${t.tooLarge}`, async () => {
          const r = await streamOversize(app, t.client(w), t.path(w), t.field, t.maxBytes + 1024);
          expect(r.status, r.text).to.equal(t.tooLarge);
        });

        it(`accepts a real MP4 of exactly ${t.maxBytes / 1024 / 1024} MB (the limit is inclusive)`, async function () {
          if (!haveFfmpeg()) this.skip();
          const data = await mp4OfSize(t.maxBytes);
          expect(data.length).to.equal(t.maxBytes);
          const r = await send('exact.mp4', 'video/mp4', data);
          expect(r.status, r.text).to.be.oneOf([200, 201]);
          await checkStored(t.urls(r.body), 'video');
        });

        for (const kind of ['webm', 'mp4'] as const) {
          it(`refuses a 3-hour ${kind.toUpperCase()} whose header claims 30 s (400) and stores nothing`, async function () {
            if (!haveFfmpeg()) this.skip();
            const data = await longVideoClaiming(kind, 30);
            const stored = async () => {
              const keys: string[] = [];
              for await (const f of app.storage.list('insights')) keys.push(f.key);
              return keys.sort();
            };
            const filesBefore = await stored();
            const [{ n: rowsBefore }] = await app.knex('insights_videos').count({ n: '*' });
            const r = await send(`long.${kind}`, `video/${kind}`, data);
            expect(r.status, r.text).to.equal(400);
            expect(r.body.message).to.equal('Video is too long: at most 60 seconds.');
            const [{ n: rowsAfter }] = await app.knex('insights_videos').count({ n: '*' });
            expect(Number(rowsAfter), 'insights_videos rows').to.equal(Number(rowsBefore));
            expect(await stored(), 'stored video files (disk or bucket)').to.deep.equal(filesBefore);
            expect(filesUnder(path.join(app.config.dataDir, 'tmp')), 'temporary files').to.deep.equal([]);
          });
        }
      }
    });
  }
});
