/**
 * Whether this server can process videos: ffprobe and ffmpeg (Debian's ffmpeg package) must run.
 * Checked when the app starts (issue 21: `npm start` without ffmpeg logs one clear warning, and
 * the web app learns it through GET /api/config, `pluginConfig.insights.videoEnabled`).
 * The commands are read from FFMPEG_PATH / FFPROBE_PATH at call time, as video.ts does at load.
 */
import { execFile } from 'node:child_process';

export interface VideoTools {
  ok: boolean;
  /** the commands that did not run */
  missing: string[];
}

function runs(cmd: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(cmd, ['-version'], { timeout: 10_000, windowsHide: true }, (err) => resolve(!err));
  });
}

const cache = new Map<string, Promise<VideoTools>>();

export function checkVideoTools(ffprobe = process.env.FFPROBE_PATH || 'ffprobe', ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg'): Promise<VideoTools> {
  const key = `${ffprobe}\0${ffmpeg}`;
  let p = cache.get(key);
  if (!p) {
    p = Promise.all([runs(ffprobe), runs(ffmpeg)]).then(([probe, mpeg]) => {
      const missing = [...(probe ? [] : [ffprobe]), ...(mpeg ? [] : [ffmpeg])];
      return { ok: missing.length === 0, missing };
    });
    cache.set(key, p);
  }
  return p;
}
