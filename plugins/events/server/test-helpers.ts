/** Helpers for the events plugin's tests: real communities, museums and members through public contracts. */
import sharp from 'sharp';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';
import { uniqueName } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';
import { instantToZoned, weekendRange } from '../shared/time.ts';

/** A local date `days` from today (UTC), YYYY-MM-DD. */
export function futureDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/**
 * A start still to come this weekend on the clock of its zone (the events page's This weekend tab):
 * Saturday noon onwards, every 4 hours, in Paris; late on Sunday in Paris it is already Monday in
 * Kiritimati, whose weekend is the coming one.
 */
export function weekendSlot(): { date: string; startTime: string; timeZone: string } {
  for (const timeZone of ['Europe/Paris', 'Pacific/Kiritimati']) {
    const w = weekendRange(new Date(), timeZone);
    for (let h = 12; h <= 40; h += 4) {
      const at = w.start.getTime() + h * 3_600_000;
      if (at > Date.now() + 2 * 3_600_000) {
        const z = instantToZoned(at, timeZone);
        return { date: z.date, startTime: z.time, timeZone };
      }
    }
  }
  throw new Error('no weekend slot');
}

export function meetupBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Impressionists at dusk',
    description: 'We walk the Orsay galleries together, then talk over coffee.',
    location: 'Musée d’Orsay, main entrance',
    date: futureDate(30),
    startTime: '18:00',
    endTime: '20:00',
    timeZone: 'Europe/Paris',
    ...over,
  };
}

/** A community created by `owner` (an Ambassador or Admin); `members` join it. */
export async function makeCommunity(owner: SignedInClient, members: SignedInClient[] = [], over: Record<string, unknown> = {}): Promise<number> {
  const r = await owner.post('/api/communities', { name: uniqueName('Community '), description: 'For tests', membershipType: 'open', ...over });
  if (r.status !== 201) throw new Error(`community: ${r.status} ${r.text}`);
  for (const m of members) {
    const j = await m.post(`/api/communities/${r.body.id}/join`, {});
    if (j.status !== 200) throw new Error(`join community: ${j.status} ${j.text}`);
  }
  return r.body.id;
}

export async function makeMuseum(app: TestApp, over: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
  const m = await app.services.get(MuseumsService).createMuseum(
    { name: uniqueName('Museum '), address: '1 Test Street', city: 'Paris', country: 'France', timezone: 'Europe/Paris', ...over } as any,
    null,
  );
  return { id: m.id, slug: m.slug };
}

export async function makeMeetup(creator: SignedInClient, communityId: number, over: Record<string, unknown> = {}): Promise<any> {
  const r = await creator.post(`/api/communities/${communityId}/meetups`, meetupBody(over));
  if (r.status !== 201) throw new Error(`meetup: ${r.status} ${r.text}`);
  return r.body;
}

export async function pngBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
}

/** A JPEG carrying EXIF with GPS coordinates (48°51'N 2°21'E) and a camera make. */
export async function gpsJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 10, g: 90, b: 160 } } })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Tracker 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}

/** Runs `n` copies of fn at the same time and answers their results. */
export function all<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}
