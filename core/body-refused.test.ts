/**
 * A body the server refuses before it has read it all (too large for the JSON parser, an upload
 * refused early) must not stall the connection it came on. The client may still be sending it after
 * the answer; a keep-alive client then sends its next request on the same connection. Left paused,
 * that connection hung until the server's keep-alive timeout (65 s) reset it, failing the next
 * request (seen as ECONNRESET in the schema fuzzing).
 */
import { expect } from 'chai';
import http from 'node:http';
import { sharedApp, type TestApp } from './testing/index.ts';

function send(agent: http.Agent, base: URL, method: string, path: string, body?: Buffer, encoding?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path, agent, headers: body ? { 'content-type': 'application/json', 'content-length': body.length, origin: base.origin, ...(encoding ? { 'content-encoding': encoding } : {}) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('a refused request body', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  // 8 MB: far more than the socket buffers hold, so the client is still sending when the answer
  // comes (the parser fails on the first bytes of a body that is not the data its encoding says)
  const cases: Array<{ what: string; encoding?: string; status: number }> = [
    { what: 'too large for the JSON parser', status: 413 },
    { what: 'plain JSON labelled deflate', encoding: 'deflate', status: 400 },
    { what: 'plain JSON labelled gzip', encoding: 'gzip', status: 400 },
    { what: 'plain JSON labelled br', encoding: 'br', status: 400 },
  ];
  for (const c of cases) {
    it(`${c.what}: ${c.status} with a message, and the connection serves the next request`, async () => {
      const base = new URL(app.url);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const big = Buffer.from(JSON.stringify({ type: 'text', content: 'x'.repeat(8_000_000) }));
        const first = await send(agent, base, 'POST', '/api/posts', big, c.encoding);
        expect(first.status).to.equal(c.status);
        expect(JSON.parse(first.text).message).to.be.a('string');
        const started = Date.now();
        const next = await send(agent, base, 'GET', '/api/config');
        expect(next.status).to.equal(200);
        expect(Date.now() - started).to.be.below(10_000);
      } finally {
        agent.destroy();
      }
    });
  }
});
