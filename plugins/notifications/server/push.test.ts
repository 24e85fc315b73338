/**
 * Web push against a local HTTP endpoint acting as the push service: it checks the VAPID
 * authorization (RFC 8292: an ES256 JWT for the endpoint's origin, signed by the key the app
 * publishes) and decrypts the payload with the subscription's keys (RFC 8291, aes128gcm RFC 8188).
 */
import http from 'node:http';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { startTestApp, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { NotificationsService, type NotificationsApi } from '../public.ts';

const b64u = (b: Buffer) => b.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => crypto.createHmac('sha256', key).update(data).digest();

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, publicKey: ecdh.getPublicKey(), auth: crypto.randomBytes(16) };
}

/** RFC 8291 §3.4 and RFC 8188: the plaintext of an aes128gcm push message. */
function decrypt(body: Buffer, ua: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const records = body.subarray(21 + idlen);
  expect(records.length).to.be.at.most(rs);
  const ecdhSecret = ua.ecdh.computeSecret(asPublic);
  const prkKey = hmac(ua.auth, ecdhSecret);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), ua.publicKey, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.concat([Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.concat([Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])])).subarray(0, 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).to.equal(2); // the last record's delimiter
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; answers the JWT's claims after checking its signature. */
function checkVapid(header: string | undefined, audience: string, publicKey: string): any {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  expect(m, `Authorization: ${header}`).to.not.equal(null);
  const [, jwt, k] = m!;
  expect(k).to.equal(publicKey);
  const [h, p, s] = jwt.split('.');
  expect(JSON.parse(Buffer.from(h, 'base64url').toString())).to.include({ alg: 'ES256', typ: 'JWT' });
  const raw = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33, 65)) }, format: 'jwk' });
  const ok = crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  expect(ok, 'VAPID signature').to.equal(true);
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  expect(claims.aud).to.equal(audience);
  expect(claims.exp * 1000).to.be.greaterThan(Date.now());
  expect(claims.exp * 1000).to.be.at.most(Date.now() + 24 * 3600_000 + 60_000);
  return claims;
}

describe('notifications: web push through a local push service (VAPID, RFC 8291)', function () {
  let app: TestApp;
  let notifications: NotificationsApi;
  let pushService: http.Server;
  let origin: string;
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Buffer }> = [];
  const gone = new Set<string>();

  before(async () => {
    pushService = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.statusCode = gone.has(req.url!) ? 410 : 201;
        res.end();
      });
    });
    await new Promise<void>((r) => pushService.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(pushService.address() as any).port}`;
    app = await startTestApp({ vapidSubject: 'mailto:ops@curio.test', plugins: { disabled: [], config: { notifications: { allowInsecurePushEndpoints: true } } } });
    notifications = app.services.get(NotificationsService);
  });
  after(async () => {
    await app?.close();
    await new Promise((r) => pushService?.close(r));
  });

  async function subscribe(u: SignedInClient, path: string) {
    const keys = browserKeys();
    const r = await u.post('/api/push/subscriptions', { endpoint: `${origin}${path}`, expirationTime: null, keys: { p256dh: b64u(keys.publicKey), auth: b64u(keys.auth) } });
    expect(r.status).to.equal(201);
    return keys;
  }

  it('pushes a notification: VAPID-signed for the push service, encrypted for the browser', async () => {
    const key = (await app.client().get('/api/push/key')).body.publicKey;
    expect(Buffer.from(key, 'base64url')).to.have.length(65);
    const u = await app.user();
    const keys = await subscribe(u, '/push/one');
    await notifications.notify([u.me.id], { type: 'follow', title: 'New follower', message: 'Ada started following you.', link: '/profile/ada' });
    const msg = await waitFor(async () => received.find((r) => r.path === '/push/one'), { timeout: 20_000 });
    expect(msg.headers['content-encoding']).to.equal('aes128gcm');
    expect(Number(msg.headers.ttl)).to.be.greaterThan(0);
    const claims = checkVapid(msg.headers.authorization, origin, key);
    expect(claims.sub).to.equal('mailto:ops@curio.test');
    expect(JSON.parse(decrypt(msg.body, keys))).to.deep.equal({ title: 'New follower', body: 'Ada started following you.', url: '/profile/ada' });
  });

  it('a direct message reaches the recipient’s devices by push (messages plugin), not when the conversation is muted', async () => {
    const ann = await app.user();
    const bob = await app.user();
    const keys = await subscribe(bob, '/push/dm');
    // Bob follows Ann: her first message goes straight to his inbox (not Requests)
    expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const c = await ann.post('/api/conversations', { participantIds: [bob.me.id], message: { text: 'See you at the Louvre at ten?' } });
    expect(c.status, c.text).to.equal(201);
    const msg = await waitFor(async () => received.find((r) => r.path === '/push/dm'), { timeout: 20_000 });
    const payload = JSON.parse(decrypt(msg.body, keys));
    expect(payload.body).to.equal('See you at the Louvre at ten?');
    expect(payload.title).to.match(/^New message from /);
    expect(payload.url).to.equal(`/messages/${c.body.id}`);
    // muted conversation: nothing more is pushed
    expect((await bob.post(`/api/conversations/${c.body.id}/mute`, { muted: true })).status).to.be.oneOf([200, 204]);
    expect((await ann.post(`/api/conversations/${c.body.id}/messages`, { text: 'Still on?' })).status).to.equal(201);
    await app.jobs.drain();
    await new Promise((r) => setTimeout(r, 300));
    expect(received.filter((r) => r.path === '/push/dm')).to.have.length(1);
  });

  it('respects the push setting and deletes a subscription the push service says is gone (410)', async () => {
    const off = await app.user();
    await subscribe(off, '/push/off');
    expect((await off.put('/api/user/preferences', { pushNotifications: false })).status).to.equal(200);
    const u = await app.user();
    await subscribe(u, '/push/gone');
    gone.add('/push/gone');
    await notifications.notify([off.me.id, u.me.id], { type: 'admin', title: 'Hello', message: 'Everyone' });
    await waitFor(async () => received.some((r) => r.path === '/push/gone'), { timeout: 20_000 });
    await waitFor(async () => !(await app.knex('push_subscriptions').where('endpoint', `${origin}/push/gone`).first()), { timeout: 20_000 });
    await app.jobs.drain();
    expect(received.filter((r) => r.path === '/push/off')).to.have.length(0);
    expect(received.filter((r) => r.path === '/push/gone')).to.have.length(1);
  });

  it('refuses bad subscriptions, and removes one on DELETE', async () => {
    const u = await app.user();
    const k = browserKeys();
    const good = { p256dh: b64u(k.publicKey), auth: b64u(k.auth) };
    expect((await u.post('/api/push/subscriptions', { endpoint: 'ftp://example.test/x', keys: good })).status).to.equal(400);
    expect((await u.post('/api/push/subscriptions', { endpoint: `${origin}/push/x`, keys: { ...good, auth: b64u(crypto.randomBytes(5)) } })).status).to.equal(400);
    expect((await app.client().post('/api/push/subscriptions', { endpoint: `${origin}/push/x`, keys: good })).status).to.equal(401);
    await subscribe(u, '/push/del');
    expect((await u.del('/api/push/subscriptions', { endpoint: `${origin}/push/del` })).status).to.equal(200);
    expect(await app.knex('push_subscriptions').where('endpoint', `${origin}/push/del`).first()).to.equal(undefined);
  });
});
