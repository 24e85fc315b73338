import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { makeAjv } from '../../../core/schemas.ts';
import catalogSchema from '../schemas/museum-catalog.schema.json' with { type: 'json' };
import holidayPolicySchema from '../schemas/holiday-policy.schema.json' with { type: 'json' };
import hoursExceptionSchema from '../schemas/hours-exception.schema.json' with { type: 'json' };
import admissionSchema from '../schemas/admission.schema.json' with { type: 'json' };
import freeRuleSchema from '../schemas/free-rule.schema.json' with { type: 'json' };
import accessibilitySchema from '../schemas/accessibility.schema.json' with { type: 'json' };
import { DAY_KEYS, type StructuredHours } from '../shared/catalog.ts';
import { isValidTimeZone, localDateTime, openStatusAt } from './opening-hours.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (p: string) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
const museums: any[] = readJson('seeds/museums/museums.json');
const events: any[] = readJson('seeds/museums/events.json');
const seedSchema = readJson('seeds/museums/seed.schema.json');

const weeks = (h: StructuredHours) => [h.defaultHours, ...(h.seasonalHours ?? []).map((s) => s.hours)];
/** Standard (January) UTC offset of a zone, in hours. */
const januaryOffset = (tz: string) => {
  const at = new Date(Date.UTC(2027, 0, 15, 12));
  const l = localDateTime(at, tz);
  return (Date.UTC(l.year, l.month - 1, l.day, 0, l.minutes) - at.getTime()) / 3_600_000;
};

describe('museums: seed data', () => {
  const ajv = makeAjv();
  ajv.addSchema(catalogSchema);
  ajv.addSchema(hoursExceptionSchema);
  ajv.addSchema(holidayPolicySchema);
  ajv.addSchema(admissionSchema);
  ajv.addSchema(freeRuleSchema);
  ajv.addSchema(accessibilitySchema);
  const compileSeed = (name: 'Museum' | 'Event') => ajv.compile({ definitions: seedSchema.definitions, $ref: `#/definitions/${name}` });

  it('has at least 64 museums in at least 12 countries and 10 time zones, all categories used', () => {
    expect(museums.length).to.be.at.least(64);
    expect(new Set(museums.map((m) => m.country)).size).to.be.at.least(12);
    expect(new Set(museums.map((m) => m.timezone)).size).to.be.at.least(10);
    expect(new Set(museums.map((m) => m.category)).size).to.equal(9);
  });

  it('every museum matches the seed schema (Museum)', () => {
    const validate = compileSeed('Museum');
    const bad = museums.filter((m) => !validate(structuredClone(m))).map((m) => `${m.slug}: ${ajv.errorsText(validate.errors)}`);
    expect(bad).to.deep.equal([]);
  });

  it('slugs and names are unique', () => {
    expect(new Set(museums.map((m) => m.slug)).size).to.equal(museums.length);
    expect(new Set(museums.map((m) => m.name)).size).to.equal(museums.length);
  });

  it('time zones are valid IANA zones and agree with the longitude', () => {
    const bad = museums.filter((m) => !isValidTimeZone(m.timezone) || Math.abs(m.longitude / 15 - januaryOffset(m.timezone)) > 2.5);
    expect(bad.map((m) => `${m.slug} ${m.timezone} ${m.longitude}`)).to.deep.equal([]);
  });

  it('coordinates are real points with about 4 decimals (not 0,0)', () => {
    for (const m of museums) {
      expect(Math.abs(m.latitude) + Math.abs(m.longitude), m.slug).to.be.greaterThan(1);
      expect(Math.round(m.latitude * 1e4) / 1e4, m.slug).to.equal(m.latitude);
      expect(Math.round(m.longitude * 1e4) / 1e4, m.slug).to.equal(m.longitude);
    }
    // southern-hemisphere museums have negative latitudes, the Americas negative longitudes
    for (const m of museums.filter((x) => ['Australia', 'New Zealand', 'South Africa', 'Brazil', 'Argentina', 'Peru'].includes(x.country))) expect(m.latitude, m.slug).to.be.lessThan(0);
    for (const m of museums.filter((x) => ['United States', 'Canada', 'Mexico', 'Brazil', 'Argentina', 'Peru'].includes(x.country))) expect(m.longitude, m.slug).to.be.lessThan(0);
  });

  it('several museums are near the default "Nearby" point in New York', () => {
    const near = museums.filter((m) => Math.abs(m.latitude - 40.78) < 0.15 && Math.abs(m.longitude + 73.97) < 0.15);
    expect(near.length).to.be.at.least(10);
  });

  it('opening hours include seasons (some across the new year), by-appointment days and closed days', () => {
    const seasonal = museums.filter((m) => m.openingHours.seasonalHours.length > 0);
    const crossing = museums.filter((m) => m.openingHours.seasonalHours.some((s: any) => /^\d\d-\d\d$/.test(s.startDate) && s.startDate > s.endDate));
    const appointment = museums.filter((m) => weeks(m.openingHours).some((w) => DAY_KEYS.some((d) => w[d].isByAppointment)));
    const closedMonday = museums.filter((m) => !m.openingHours.defaultHours.monday.isOpen);
    expect(seasonal.length).to.be.at.least(8);
    expect(crossing.length).to.be.at.least(3);
    expect(appointment.length).to.be.at.least(5);
    expect(closedMonday.length).to.be.at.least(10);
  });

  it('every museum opens on some day, and its status can be computed', () => {
    for (const m of museums) {
      expect(DAY_KEYS.some((d) => m.openingHours.defaultHours[d].isOpen), m.slug).to.equal(true);
      const r = openStatusAt(m.openingHours, new Date('2027-01-15T12:00:00Z'), m.timezone);
      expect(['open', 'closed', 'by_appointment'], m.slug).to.include(r.status);
    }
  });

  it('known hours give the expected status (Louvre Tuesday closed, Met Friday late, Pergamon renovation)', () => {
    const bySlug = new Map(museums.map((m) => [m.slug, m]));
    const at = (slug: string, iso: string) => openStatusAt(bySlug.get(slug).openingHours, new Date(iso), bySlug.get(slug).timezone);
    expect(at('louvre-museum', '2027-01-12T12:00:00Z').status).to.equal('closed'); // Tuesday
    expect(at('louvre-museum', '2027-01-13T19:00:00Z').status).to.equal('open'); // Wednesday 20:00 Paris
    expect(at('the-metropolitan-museum-of-art', '2027-01-16T01:30:00Z').status).to.equal('open'); // Friday 20:30 New York
    expect(at('the-metropolitan-museum-of-art', '2027-01-14T01:30:00Z').status).to.equal('closed'); // Wednesday 20:30
    expect(at('pergamonmuseum', '2027-01-14T12:00:00Z')).to.include({ status: 'closed', season: 'Closed for renovation' });
    expect(at('pergamonmuseum', '2027-04-14T12:00:00Z').status).to.equal('open');
    expect(at('george-washingtons-mount-vernon', '2027-01-15T21:30:00Z')).to.include({ status: 'closed', season: 'Winter' }); // 16:30
    expect(at('merchants-house-museum', '2027-01-12T17:00:00Z').status).to.equal('by_appointment'); // Tuesday
  });

  it('amenities are catalogue keys, without duplicates, and a mix of verified and unverified museums', () => {
    expect(museums.filter((m) => m.isVerified).length).to.be.greaterThan(0);
    expect(museums.filter((m) => !m.isVerified).length).to.be.greaterThan(0);
    for (const m of museums) expect(m.amenities.length, m.slug).to.be.at.least(3);
  });

  describe('events', () => {
    const slugs = new Map(museums.map((m) => [m.slug, m]));
    it('has 12 events that match the seed schema (Event)', () => {
      expect(events).to.have.length(12);
      const validate = compileSeed('Event');
      const bad = events.filter((e) => !validate(structuredClone(e))).map((e) => `${e.title}: ${ajv.errorsText(validate.errors)}`);
      expect(bad).to.deep.equal([]);
    });
    it('each event belongs to a seeded museum, is in 2027 after 2026-11-21, ends after it starts, and carries the museum\'s offset', () => {
      for (const e of events) {
        const m = slugs.get(e.museumSlug);
        expect(m, e.museumSlug).to.not.equal(undefined);
        const start = new Date(e.dateTime);
        const end = new Date(e.endDateTime);
        expect(start.getTime(), e.title).to.be.greaterThan(Date.parse('2026-11-21T00:00:00Z'));
        expect(e.dateTime.slice(0, 4), e.title).to.equal('2027');
        expect(end.getTime(), e.title).to.be.greaterThan(start.getTime());
        for (const [iso, d] of [[e.dateTime, start], [e.endDateTime, end]] as const) {
          const l = localDateTime(d, m.timezone);
          const wall = `${l.year}-${String(l.month).padStart(2, '0')}-${String(l.day).padStart(2, '0')}T${String(Math.floor(l.minutes / 60)).padStart(2, '0')}:${String(l.minutes % 60).padStart(2, '0')}`;
          expect(iso.slice(0, 16), `${e.title} in ${m.timezone}`).to.equal(wall);
        }
        expect(new URL(e.ticketUrl).host, e.title).to.equal(new URL(m.website).host);
      }
    });
    it('has free and paid events, and some without an attendance limit', () => {
      expect(events.some((e) => e.price === 0)).to.equal(true);
      expect(events.some((e) => e.price > 0)).to.equal(true);
      expect(events.some((e) => e.maxAttendees === null)).to.equal(true);
    });
  });
});
