/**
 * A server without ffmpeg (issue 21, "the two commands on a fresh machine"): GET /api/config tells
 * the web app that video insights are off, and the upload route refuses at once with a clear 503
 * (before reading the upload) instead of failing after it. With ffmpeg (this machine) both work.
 */
import { expect } from 'chai';
import { startTestApp, sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { MESSAGES } from './index.ts';
import { checkVideoTools } from './video-tools.ts';
import { makeVideo } from './test-helpers.ts';

describe('insights: servers without ffmpeg', function () {
  this.timeout(60000);

  it('checkVideoTools names the commands that do not run', async () => {
    expect(await checkVideoTools('ffprobe', 'ffmpeg')).to.deep.equal({ ok: true, missing: [] });
    expect(await checkVideoTools('/nonexistent/ffprobe', '/nonexistent/ffmpeg')).to.deep.equal({ ok: false, missing: ['/nonexistent/ffprobe', '/nonexistent/ffmpeg'] });
    expect(await checkVideoTools('ffprobe', '/nonexistent/ffmpeg')).to.deep.equal({ ok: false, missing: ['/nonexistent/ffmpeg'] });
  });

  it('with ffmpeg: /api/config says videoEnabled true', async () => {
    const app = await sharedApp();
    const r = await app.client().get('/api/config');
    expect(r.status).to.equal(200);
    expect(r.body.pluginConfig.insights).to.deep.equal({ videoEnabled: true });
  });

  describe('without ffmpeg', function () {
    let app: TestApp;
    const saved = { ffmpeg: process.env.FFMPEG_PATH, ffprobe: process.env.FFPROBE_PATH };
    before(async function () {
      this.timeout(120000);
      process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
      process.env.FFPROBE_PATH = '/nonexistent/ffprobe';
      try {
        app = await startTestApp();
      } finally {
        if (saved.ffmpeg === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved.ffmpeg;
        if (saved.ffprobe === undefined) delete process.env.FFPROBE_PATH;
        else process.env.FFPROBE_PATH = saved.ffprobe;
      }
    });
    after(async () => app?.close());

    it('/api/config says videoEnabled false', async () => {
      const r = await app.client().get('/api/config');
      expect(r.status).to.equal(200);
      expect(r.body.pluginConfig.insights).to.deep.equal({ videoEnabled: false });
    });

    it('a video upload is refused with a clear 503, text insights still work', async () => {
      const alice = await app.user({ firstName: 'Alice' });
      const video = makeVideo('webm');
      const r = await alice.upload('/api/posts/video', [{ field: 'video', name: 'clip.webm', type: 'video/webm', data: video }]);
      expect(r.status, r.text).to.equal(503);
      expect(r.body.message).to.equal(MESSAGES.videoUnavailable);
      const t = await alice.post('/api/posts', { type: 'text', content: 'Still here', tags: [] });
      expect(t.status, t.text).to.equal(201);
    });
  });
});
