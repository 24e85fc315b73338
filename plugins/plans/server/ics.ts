/**
 * A plan as an iCalendar file (RFC 5545, ical-generator as publicweb's feeds): one VEVENT per
 * stop (a museum visit, or an event or meetup under its own title), in UTC (the stop's instants already carry the museum's zone). UIDs are
 * `plan-<plan>-stop-<stop>@<host>`, stable while the stop exists, so a calendar app updates the
 * events it imported; SEQUENCE is the plan's, bumped by every change.
 */
import ical, { ICalCalendarMethod } from 'ical-generator';

export interface IcsPlan {
  id: number;
  title: string;
  sequence: number;
  updatedAt: string;
  stops: Array<{ id: number; startsAt: string; endsAt: string; event: { id: number; kind: string; title: string; location: string } | null; museum: { name: string; slug: string; city: string; latitude: number | null; longitude: number | null } | null }>;
}

export function planIcs(plan: IcsPlan, opts: { origin: string; url: string }): string {
  const host = new URL(opts.origin).hostname || 'curio';
  const cal = ical({ name: plan.title, prodId: { company: 'Curio', product: 'Curio plans', language: 'EN' }, method: ICalCalendarMethod.PUBLISH });
  for (const s of plan.stops) {
    // an event or meetup under its own title and page; a museum visit under the museum's
    const what = s.event
      ? { summary: s.event.title, url: `${opts.origin}/${s.event.kind === 'meetup' ? 'meetups' : 'events'}/${s.event.id}`, place: [s.event.location, s.museum?.name, s.museum?.city] }
      : s.museum
        ? { summary: s.museum.name, url: `${opts.origin}/museum/${s.museum.slug}`, place: [s.museum.name, s.museum.city] }
        : null;
    if (!what) continue;
    const title = what.place.filter(Boolean).join(', ');
    const geo = s.museum?.latitude != null && s.museum.longitude != null ? { lat: s.museum.latitude, lon: s.museum.longitude } : null;
    cal.createEvent({
      id: `plan-${plan.id}-stop-${s.id}@${host}`,
      sequence: plan.sequence,
      start: new Date(s.startsAt),
      end: new Date(s.endsAt),
      stamp: new Date(plan.updatedAt),
      lastModified: new Date(plan.updatedAt),
      summary: what.summary,
      description: `${plan.title}\n${what.url}\n${opts.url}`,
      location: geo ? { title, geo } : title,
      url: what.url,
    });
  }
  return cal.toString();
}
