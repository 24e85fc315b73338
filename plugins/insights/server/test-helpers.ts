/** Helpers for the insights tests: real videos made with ffmpeg, follows, museums, privacy. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestApp, TestClient, SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-test-'));
const cache = new Map<string, Buffer>();

/** A real video made with ffmpeg's test source (cached per kind). */
export type VideoKind = 'webm' | 'mp4' | 'long' | 'nodur' | 'mkv264' | 'avi';

export function makeVideo(kind: VideoKind): Buffer {
  const hit = cache.get(kind);
  if (hit) return hit;
  const ext = kind === 'mp4' ? 'mp4' : kind === 'mkv264' ? 'mkv' : kind === 'avi' ? 'avi' : 'webm';
  const out = path.join(dir, `${kind}.${ext}`);
  const base = ['-v', 'error', '-y', '-f', 'lavfi'];
  if (kind === 'webm') execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=2:size=320x240:rate=10', '-c:v', 'libvpx', '-b:v', '200k', out]);
  if (kind === 'mp4')
    execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=2:size=320x240:rate=10', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out]);
  // H.264 in Matroska (what some recorders write): served as MP4
  if (kind === 'mkv264') execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=2:size=160x120:rate=10', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', out]);
  // MPEG-4 Part 2 in AVI: browsers cannot play it
  if (kind === 'avi') execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=2:size=160x120:rate=10', '-c:v', 'mpeg4', out]);
  // 61 s, cheaply: tiny frames at 2 fps
  if (kind === 'long') execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=61:size=64x48:rate=2', '-c:v', 'libvpx', '-b:v', '20k', out]);
  // like a browser's MediaRecorder: written to a pipe, so the header carries no duration
  if (kind === 'nodur') {
    const buf = execFileSync('ffmpeg', [...base, '-i', 'testsrc=duration=3:size=160x120:rate=10', '-c:v', 'libvpx', '-f', 'webm', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
    fs.writeFileSync(out, buf);
  }
  const data = fs.readFileSync(out);
  cache.set(kind, data);
  return data;
}

export async function uploadVideo(c: TestClient, kind: VideoKind = 'webm') {
  const data = makeVideo(kind);
  return c.upload('/api/posts/video', [{ field: 'video', name: kind === 'mp4' ? 'clip.mp4' : 'clip.webm', type: kind === 'mp4' ? 'video/mp4' : 'video/webm', data }]);
}

export async function textPost(c: TestClient, content: string, extra: Record<string, unknown> = {}) {
  const r = await c.post('/api/posts', { type: 'text', content, videoUrl: null, museumId: null, tags: [], ...extra });
  if (r.status !== 201) throw new Error(`post failed: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * Follows through the accounts route (a toggle: follow again if it was an unfollow). A private
 * profile answers with a request: `owner` (the target's client) then approves it.
 */
export async function follow(_app: TestApp, c: SignedInClient, targetId: number, owner?: SignedInClient): Promise<void> {
  let r = await c.post(`/api/user/${targetId}/follow`);
  if (r.status !== 200) throw new Error(`follow failed: ${r.status} ${r.text}`);
  if (r.body?.following === false && !r.body?.requested) r = await c.post(`/api/user/${targetId}/follow`);
  if (r.body?.requested) {
    if (!owner) throw new Error('following a private profile needs its owner to approve: pass the owner');
    const req = (await owner.get('/api/follow-requests?limit=100')).body.items.find((x: any) => x.user.id === c.me.id);
    const a = await owner.post(`/api/follow-requests/${req.id}/authorize`);
    if (a.status !== 200) throw new Error(`approval failed: ${a.status} ${a.text}`);
  }
}

/** Sets profileVisibility through the accounts settings route. */
export async function setVisibility(c: SignedInClient, v: 'public' | 'private' | 'friends'): Promise<boolean> {
  const r = await c.put('/api/user/preferences', { profileVisibility: v });
  if (r.status !== 200) throw new Error(`preferences failed: ${r.status} ${r.text}`);
  return true;
}

export async function createMuseum(app: TestApp, name: string) {
  const m = app.services.get(MuseumsService);
  return m.createMuseum({ name, address: '1 Main St', city: 'Lyon', country: 'France', description: 'A test museum' }, null);
}
