/**
 * Video checks and processing with ffprobe/ffmpeg (Debian's ffmpeg package). Everything is
 * decided from the file's content, never from the client's name or declared type:
 * - a video stream must exist, with codecs browsers play (H.264, HEVC or AV1 served as MP4; VP8,
 *   VP9 or AV1 served as WebM);
 * - the duration is measured from the streams' packets (the last timestamp), never taken from the
 *   container's header alone, which can claim 30 s for 3 hours;
 * - the file is remuxed without re-encoding, cut at the limit (WebM gets duration and cues so players can seek,
 *   MP4 gets its index in front so playback starts before the download ends);
 * - a poster is taken from a frame and re-encoded with sharp.
 */
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';

export const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';
export const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';

export class VideoRejected extends Error {}
/** ffmpeg took too long (a busy machine): the client may retry. */
export class VideoBusy extends Error {}

export interface ProbedVideo {
  container: 'mp4' | 'webm';
  duration: number;
  width: number | null;
  height: number | null;
  videoCodec: string;
  audioCodec: string | null;
  /** the streams kept by the remux (and measured): indexes in the file */
  videoIndex: number;
  audioIndex: number | null;
}

const MP4_VIDEO = new Set(['h264', 'hevc', 'av1']);
const MP4_AUDIO = new Set(['aac', 'mp3', 'opus', 'alac', 'flac']);
const WEBM_VIDEO = new Set(['vp8', 'vp9', 'av1']);
const WEBM_AUDIO = new Set(['opus', 'vorbis']);

// At most two ffmpeg/ffprobe processes at a time per app process (2-core machines).
let active = 0;
const waiting: Array<() => void> = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= 2) await new Promise<void>((r) => waiting.push(r));
  active++;
  try {
    return await fn();
  } finally {
    active--;
    waiting.shift()?.();
  }
}

function run(cmd: string, args: string[], opts: { timeoutMs?: number; maxOutput?: number; binary?: boolean } = {}): Promise<{ code: number; stdout: Buffer; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outLen = 0;
    let err = '';
    const max = opts.maxOutput ?? 64 * 1024 * 1024;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      outLen += d.length;
      if (outLen > max) child.kill('SIGKILL');
      else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 8192) err += d.toString();
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err, timedOut });
    });
  });
}

/**
 * How long the given streams really last, read from their packets' timestamps (no decoding):
 * the container's header can claim anything. Answers the longest stream's end (from 0, or from its
 * first timestamp when that is negative), or null when they have no packets. ffprobe's output is
 * read line by line, never held whole (a long video has millions of packets).
 */
async function durationFromPackets(file: string, streams: number[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFPROBE, ['-v', 'error', '-show_entries', 'packet=stream_index,pts_time,dts_time,duration_time', '-of', 'csv=p=0', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, 120_000);
    const wanted = new Set(streams);
    const start = new Map<number, number>();
    const end = new Map<number, number>();
    let rest = '';
    const line = (l: string) => {
      const [idx, pts, dts, dur] = l.split(',');
      const i = Number(idx);
      if (!wanted.has(i)) return;
      const num = (x: string | undefined) => (x === undefined || x === '' || x === 'N/A' ? NaN : Number(x));
      let t = num(pts);
      if (!Number.isFinite(t)) t = num(dts);
      if (!Number.isFinite(t)) return;
      const d = num(dur);
      start.set(i, Math.min(start.get(i) ?? Infinity, t));
      end.set(i, Math.max(end.get(i) ?? -Infinity, t + (Number.isFinite(d) && d > 0 ? d : 0)));
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) line(l);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (rest) line(rest);
      if (timedOut) return reject(new VideoBusy('ffprobe timed out'));
      if (code !== 0 || end.size === 0) return resolve(null);
      let longest = 0;
      for (const [i, e] of end) longest = Math.max(longest, e - Math.min(start.get(i)!, 0));
      resolve(longest);
    });
  });
}

export async function probeVideo(file: string): Promise<ProbedVideo> {
  return slot(async () => {
    const r = await run(FFPROBE, ['-v', 'error', '-show_entries', 'format=format_name,duration:stream=index,codec_type,codec_name,width,height,duration', '-of', 'json', file], {
      timeoutMs: 90_000,
    });
    if (r.timedOut) throw new VideoBusy('ffprobe timed out');
    if (r.code !== 0) throw new VideoRejected('not a video');
    let info: any;
    try {
      info = JSON.parse(r.stdout.toString());
    } catch {
      throw new VideoRejected('not a video');
    }
    const format: string = info?.format?.format_name ?? '';
    const streams: any[] = info?.streams ?? [];
    const video = streams.find((s) => s.codec_type === 'video' && !['mjpeg', 'png', 'bmp', 'gif', 'webp'].includes(s.codec_name));
    if (!video) throw new VideoRejected('not a video');
    const audio = streams.find((s) => s.codec_type === 'audio');
    // The served container follows the codecs (streams are copied, never re-encoded): MP4 for
    // H.264/HEVC/AV1 with AAC/MP3/Opus, WebM for VP8/VP9/AV1 with Opus/Vorbis, whatever the source
    // container (e.g. H.264 recorded into Matroska becomes MP4).
    const a = audio?.codec_name as string | undefined;
    const mp4Ok = MP4_VIDEO.has(video.codec_name) && (!a || MP4_AUDIO.has(a));
    const webmOk = WEBM_VIDEO.has(video.codec_name) && (!a || WEBM_AUDIO.has(a));
    const fromMp4 = /(^|,)(mov|mp4)(,|$)/.test(format);
    let container: 'mp4' | 'webm';
    if (fromMp4 && mp4Ok) container = 'mp4';
    else if (webmOk) container = 'webm';
    else if (mp4Ok) container = 'mp4';
    else throw new VideoRejected('codec');
    // The header's duration is only a claim (a 3-hour file may say 30 s): the packets of the
    // streams that will be kept decide; a header claiming more than the packets is believed too.
    if (!Number.isInteger(video.index)) throw new VideoRejected('not a video');
    const measured = await durationFromPackets(file, [video.index, audio?.index].filter((i): i is number => Number.isInteger(i)));
    if (measured == null) throw new VideoRejected('not a video');
    const claimed = [Number(info?.format?.duration), Number(video.duration), Number(audio?.duration)].filter((d) => Number.isFinite(d) && d > 0);
    const duration = Math.max(measured, ...claimed);
    return {
      container,
      duration,
      width: Number.isInteger(video.width) ? video.width : null,
      height: Number.isInteger(video.height) ? video.height : null,
      videoCodec: video.codec_name,
      audioCodec: audio?.codec_name ?? null,
      videoIndex: video.index,
      audioIndex: Number.isInteger(audio?.index) ? audio.index : null,
    };
  });
}

/**
 * Copies the streams into a clean container (no re-encoding), never longer than `maxSeconds`;
 * answers the new file's path. Callers probe the result again before accepting it.
 */
export async function remux(file: string, probed: ProbedVideo, tmpDir: string, maxSeconds: number): Promise<string> {
  const out = path.join(tmpDir, `${crypto.randomBytes(12).toString('hex')}.${probed.container}`);
  // exactly the streams probed and measured (not a cover picture that happens to come first)
  const maps = ['-map', `0:${probed.videoIndex}`, ...(probed.audioIndex !== null ? ['-map', `0:${probed.audioIndex}`] : [])];
  const args = ['-v', 'error', '-y', '-i', file, ...maps, '-c', 'copy', '-map_metadata', '-1', '-t', maxSeconds.toFixed(3)];
  if (probed.container === 'mp4') args.push('-movflags', '+faststart', '-f', 'mp4');
  else args.push('-f', 'webm', '-cues_to_front', '1');
  args.push(out);
  const r = await slot(() => run(FFMPEG, args, { timeoutMs: 180_000 }));
  if (r.timedOut) {
    await fsp.rm(out, { force: true });
    throw new VideoBusy('ffmpeg timed out');
  }
  if (r.code !== 0) {
    await fsp.rm(out, { force: true });
    throw new VideoRejected(`remux failed: ${r.stderr.slice(0, 300)}`);
  }
  return out;
}

/** A JPEG poster from a frame near the start (1 s in, or the middle of shorter videos). */
export async function makePoster(file: string, duration: number): Promise<Buffer | null> {
  const at = Math.min(1, duration / 2);
  const grab = (seek: number) =>
    slot(() =>
      run(FFMPEG, ['-v', 'error', '-ss', seek.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'], {
        timeoutMs: 30_000,
        maxOutput: 40 * 1024 * 1024,
      }),
    );
  let r = await grab(at);
  if (r.code !== 0 || r.stdout.length === 0) r = await grab(0);
  if (r.code !== 0 || r.stdout.length === 0) return null;
  try {
    return await sharp(r.stdout).resize(1280, 720, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
  } catch {
    return null;
  }
}
