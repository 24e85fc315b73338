/**
 * Onboarding (issue 21): the member's interests (museum categories offered by the museums plugin
 * through OnboardingSources), home city (a typed city geocoded on the server, or the browser's
 * position rounded to about a kilometre) and progress through the steps. Settings edits the same.
 */
import { HttpError } from '../../../core/errors.ts';
import { OnboardingSources } from '../public.ts';
import { tasteOf } from './service.ts';
import type { RouteDeps } from './deps.ts';

export const CITY_NOT_FOUND = 'We could not find this city. Check the spelling or use your location.';
export const UNKNOWN_INTEREST = 'Please pick interests from the list.';
export const CITY_OR_LOCATION = 'Give a city or a location, not both.';
export const NO_GEOCODER = 'Looking up a city is not available on this server: use your location.';

interface Body {
  interests?: string[];
  homeCity?: string | null;
  location?: { latitude: number; longitude: number };
  status?: 'started' | 'done' | 'skipped';
  step?: number;
}

/** ~1.1 km: a home position is for "near you", never an address. */
const round = (n: number) => Math.round(n * 100) / 100;

export function addOnboardingRoutes({ ctx, knex }: RouteDeps): void {
  const sources = () => ctx.services.maybe(OnboardingSources);
  const COLUMNS = ['interests', 'home_city', 'home_latitude', 'home_longitude', 'onboarding_status', 'onboarding_step'];
  const out = (row: any) => {
    const taste = tasteOf(row);
    return { status: row.onboarding_status ?? null, step: Number(row.onboarding_step ?? 0), interests: taste.interests, home: taste.home, choices: sources()?.interestChoices() ?? [] };
  };

  ctx.routes.add({
    method: 'GET',
    path: '/api/user/onboarding',
    operationId: 'getOnboarding',
    summary: "The signed-in member's interests, home city and onboarding progress, with the interests on offer",
    auth: 'required',
    schema: { response: { $ref: 'accounts/Onboarding' } },
    async handler(c) {
      const row = await knex('users').where({ id: c.user!.id }).first(COLUMNS);
      if (!row) throw new HttpError(401, 'Authentication required');
      return out(row);
    },
  });

  ctx.routes.add<unknown, unknown, Body>({
    method: 'PUT',
    path: '/api/user/onboarding',
    operationId: 'updateOnboarding',
    summary: 'Save interests, the home city (geocoded on the server) or position, and onboarding progress',
    auth: 'required',
    schema: {
      body: { $ref: 'accounts/OnboardingUpdateBody' },
      response: { 200: { $ref: 'accounts/Onboarding' }, 400: { $ref: 'shared/Error' }, 401: { $ref: 'shared/Error' }, 502: { $ref: 'shared/Error' }, 504: { $ref: 'shared/Error' } },
    },
    async handler(c) {
      const b = c.input.body;
      const changes: Record<string, unknown> = {};
      if (b.interests !== undefined) {
        const allowed = new Set((sources()?.interestChoices() ?? []).map((x) => x.key));
        const bad = b.interests.findIndex((k) => !allowed.has(k));
        if (bad >= 0) throw new HttpError(400, UNKNOWN_INTEREST, { errors: [{ path: `/interests/${bad}`, message: UNKNOWN_INTEREST }] });
        changes.interests = b.interests;
      }
      if (b.location && b.homeCity != null) throw new HttpError(400, CITY_OR_LOCATION, { errors: [{ path: '/location', message: CITY_OR_LOCATION }] });
      if (b.location) {
        Object.assign(changes, { home_city: null, home_latitude: round(b.location.latitude), home_longitude: round(b.location.longitude) });
      } else if (b.homeCity === null || (typeof b.homeCity === 'string' && !b.homeCity.trim())) {
        Object.assign(changes, { home_city: null, home_latitude: null, home_longitude: null });
      } else if (typeof b.homeCity === 'string') {
        const city = b.homeCity.trim();
        const geo = sources();
        if (!geo) throw new HttpError(400, NO_GEOCODER, { errors: [{ path: '/homeCity', message: NO_GEOCODER }] });
        const hit = await geo.geocodeCity(city); // 502/504 HttpErrors pass through with their message
        if (!hit.found || hit.latitude == null || hit.longitude == null) throw new HttpError(400, CITY_NOT_FOUND, { errors: [{ path: '/homeCity', message: CITY_NOT_FOUND }] });
        Object.assign(changes, { home_city: city, home_latitude: round(hit.latitude), home_longitude: round(hit.longitude) });
      }
      if (b.status !== undefined) changes.onboarding_status = b.status;
      if (b.step !== undefined) changes.onboarding_step = b.step;
      const q = knex('users').where({ id: c.user!.id });
      const [row] = Object.keys(changes).length ? await q.update({ ...changes, updated_at: knex.fn.now() }).returning(COLUMNS) : [await q.first(COLUMNS)];
      if (!row) throw new HttpError(401, 'Authentication required');
      return out(row);
    },
  });
}
