/**
 * Atom (RFC 4287) feeds of insights and iCalendar (RFC 5545, ical-generator) subscriptions of
 * events. Entry ids and event UIDs are the content's canonical URL / `<kind>-<id>@<host>`: stable
 * for the life of the content. An event's SEQUENCE is the number of seconds between its creation
 * and its last change: it only grows, and grows at every change, with nothing stored for it.
 */
import ical, { ICalCalendarMethod } from 'ical-generator';
import { esc } from './html.ts';
import type { EventLike } from './jsonld.ts';

export interface AtomEntry {
  id: string;
  title: string;
  url: string;
  updated: string;
  published: string;
  author: { name: string; uri?: string };
  content: string;
}

export function buildAtom(f: { id: string; title: string; selfUrl: string; htmlUrl: string; lang: string; entries: AtomEntry[]; fallbackUpdated: string }): string {
  const updated = f.entries.map((e) => e.updated).reduce((a, b) => (b > a ? b : a), f.fallbackUpdated);
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${esc(f.lang)}">`,
    `  <id>${esc(f.id)}</id>`,
    `  <title>${esc(f.title)}</title>`,
    `  <updated>${esc(new Date(updated).toISOString())}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${esc(f.selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${esc(f.htmlUrl)}"/>`,
    '  <generator>Curio</generator>',
  ];
  for (const e of f.entries) {
    out.push(
      '  <entry>',
      `    <id>${esc(e.id)}</id>`,
      `    <title>${esc(e.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${esc(e.url)}"/>`,
      `    <published>${esc(new Date(e.published).toISOString())}</published>`,
      `    <updated>${esc(new Date(e.updated).toISOString())}</updated>`,
      `    <author><name>${esc(e.author.name)}</name>${e.author.uri ? `<uri>${esc(e.author.uri)}</uri>` : ''}</author>`,
      `    <content type="text">${esc(e.content)}</content>`,
      '  </entry>',
    );
  }
  out.push('</feed>', '');
  return out.join('\n');
}

/** SEQUENCE of an event: whole seconds from creation to the last change. */
export function sequenceOf(e: { createdAt: string; updatedAt: string }): number {
  const n = Math.floor((new Date(e.updatedAt).getTime() - new Date(e.createdAt).getTime()) / 1000);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function buildEventsIcs(events: EventLike[], opts: { name: string; origin: string }): string {
  const host = new URL(opts.origin).hostname || 'curio';
  const cal = ical({ name: opts.name, prodId: { company: 'Curio', product: 'Curio public calendar', language: 'EN' }, method: ICalCalendarMethod.PUBLISH });
  for (const e of events) {
    const start = new Date(e.dateTime);
    const end = e.endDateTime ? new Date(e.endDateTime) : new Date(start.getTime() + 2 * 3_600_000);
    const url = `${opts.origin}/${e.kind === 'meetup' ? 'meetups' : 'events'}/${e.id}`;
    cal.createEvent({
      id: `${e.kind === 'meetup' ? 'meetup' : 'event'}-${e.id}@${host}`,
      sequence: sequenceOf(e),
      start,
      end,
      stamp: new Date(e.updatedAt),
      lastModified: new Date(e.updatedAt),
      created: new Date(e.createdAt),
      summary: e.title,
      description: `${e.description}\n\n${url}`.trim(),
      location: e.museum ? [e.museum.name, e.location].filter(Boolean).join(', ') : e.location,
      url,
    });
  }
  return cal.toString();
}
