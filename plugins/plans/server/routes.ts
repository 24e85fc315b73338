/** The routes of day plans (README.md lists them); the rules live in service.ts and check.ts. */
import type { ApiContext, PluginContext } from '../../../core/plugin-api.ts';
import type { PlanInput, PlanUpdate, PlansStore, StopInput } from './service.ts';
import { planIcs } from './ics.ts';

const plan = { $ref: 'plans/Plan' };
const idParams = { $ref: 'shared/IdParams' };
const stopParams = { type: 'object', additionalProperties: false, required: ['id', 'stopId'], properties: { id: { $ref: 'shared/Id' }, stopId: { $ref: 'shared/Id' } } };
const tokenParams = { type: 'object', additionalProperties: false, required: ['token'], properties: { token: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,32}$' } } };

export function registerRoutes(ctx: PluginContext, store: PlansStore): void {
  const r = ctx.routes;
  const origin = (c: ApiContext) => (ctx.appConfig.publicOrigin ?? `${c.protocol}://${c.host}`).replace(/\/$/, '');
  const sendIcs = (c: ApiContext, p: Awaited<ReturnType<PlansStore['answer']>>, url: string) => {
    c.status = 200;
    c.set('Content-Type', 'text/calendar; charset=utf-8');
    c.set('Content-Disposition', `attachment; filename="plan-${p.id}.ics"`);
    c.set('Cache-Control', 'private, no-cache');
    c.body = planIcs(p, { origin: origin(c), url });
  };
  const noStore = (c: ApiContext) => c.set('Cache-Control', 'no-store');

  r.add({
    method: 'GET',
    path: '/api/plans',
    operationId: 'listMyPlans',
    summary: "The signed-in member's day plans, latest date first",
    auth: 'required',
    schema: { response: { type: 'array', items: { $ref: 'plans/PlanSummary' } } },
    handler: (c) => {
      noStore(c);
      return store.listMine(c.user!.id);
    },
  });

  r.add<unknown, unknown, PlanInput>({
    method: 'POST',
    path: '/api/plans',
    operationId: 'createPlan',
    summary: 'A new day plan (at most 20 per member: 409), optionally with its first stops (at most 12: 400)',
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'plans/PlanInput' }, response: { 201: plan } },
    handler: (c) => store.create(c.user!.id, c.input.body),
  });

  r.add<{ id: number }>({
    method: 'GET',
    path: '/api/users/:id/plans',
    operationId: 'listUserPublicPlans',
    summary: "A member's public plans, for viewers accounts' privacy rule lets see the member (else an empty list)",
    auth: 'optional',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'plans/PlanSummary' } } },
    handler: (c) => {
      noStore(c);
      return store.listPublicOf(c.input.params.id, c.user);
    },
  });

  r.add<{ id: number }>({
    method: 'GET',
    path: '/api/plans/:id',
    operationId: 'getPlan',
    summary: 'One plan with every stop checked (hours, closures, holidays, free entry, walks) and a suggested order; the owner, or anyone who may see the owner when it is public (404 otherwise)',
    auth: 'optional',
    schema: { params: idParams, response: plan },
    handler: async (c) => {
      noStore(c);
      return store.answer(await store.readable(c.input.params.id, c.user), c.user);
    },
  });

  r.add<{ id: number }, unknown, PlanUpdate>({
    method: 'PATCH',
    path: '/api/plans/:id',
    operationId: 'updatePlan',
    summary: 'Change the title, date, visibility or walking speed of your plan; newShareLink: true replaces the shared link',
    auth: 'required',
    schema: { params: idParams, body: { $ref: 'plans/PlanUpdate' }, response: plan },
    handler: (c) => store.update(c.input.params.id, c.user!, c.input.body),
  });

  r.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/plans/:id',
    operationId: 'deletePlan',
    summary: 'Delete your plan',
    auth: 'required',
    schema: { params: idParams, response: { $ref: 'shared/Ok' } },
    handler: async (c) => {
      await store.remove(c.input.params.id, c.user!.id);
      return { success: true, message: 'Plan deleted' };
    },
  });

  r.add<{ id: number }, unknown, StopInput>({
    method: 'POST',
    path: '/api/plans/:id/stops',
    operationId: 'addPlanStop',
    summary: 'Add a museum (museumId, arrival?, durationMinutes?) or an event or meetup you may see (eventId: its own times) to your plan (at most 12 stops: 409); a museum without arrival comes after the last stop and the walk',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: { $ref: 'plans/StopInput' }, response: { 201: plan } },
    handler: (c) => store.addStop(c.input.params.id, c.user!, c.input.body),
  });

  r.add<{ id: number; stopId: number }, unknown, { arrival?: string; durationMinutes?: number }>({
    method: 'PATCH',
    path: '/api/plans/:id/stops/:stopId',
    operationId: 'updatePlanStop',
    summary: "Change a museum stop's arrival time or duration (an event's times come from the event: 400)",
    auth: 'required',
    schema: { params: stopParams, body: { $ref: 'plans/StopUpdate' }, response: plan },
    handler: (c) => store.updateStop(c.input.params.id, c.input.params.stopId, c.user!, c.input.body),
  });

  r.add<{ id: number; stopId: number }>({
    method: 'DELETE',
    path: '/api/plans/:id/stops/:stopId',
    operationId: 'removePlanStop',
    summary: 'Remove a stop from your plan',
    auth: 'required',
    schema: { params: stopParams, response: plan },
    handler: (c) => store.removeStop(c.input.params.id, c.input.params.stopId, c.user!),
  });

  r.add<{ id: number }, unknown, { stopIds: number[]; arrivals?: string[] }>({
    method: 'PUT',
    path: '/api/plans/:id/order',
    operationId: 'reorderPlanStops',
    summary: "Put your plan's stops in a new order (every stop once), optionally with new arrival times (the suggestion's)",
    auth: 'required',
    schema: { params: idParams, body: { $ref: 'plans/StopOrder' }, response: plan },
    handler: (c) => store.reorder(c.input.params.id, c.user!, c.input.body),
  });

  r.add<{ id: number }>({
    method: 'GET',
    path: '/api/plans/:id/ics',
    operationId: 'getPlanIcs',
    summary: 'The plan as an iCalendar file: one event per stop, stable UIDs, SEQUENCE bumped on every change (who may read the plan)',
    auth: 'optional',
    raw: true,
    rawContentType: 'text/calendar',
    schema: { params: idParams },
    handler: async (c) => {
      const p = await store.answer(await store.readable(c.input.params.id, c.user), c.user);
      sendIcs(c, p, `${origin(c)}/plans/${p.id}`);
    },
  });

  r.add<{ token: string }>({
    method: 'GET',
    path: '/api/shared-plans/:token',
    operationId: 'getSharedPlan',
    summary: 'A plan by its shared link (visibility link or public; 404 when private again, the link was replaced, or across a block)',
    auth: 'optional',
    schema: { params: tokenParams, response: plan },
    handler: async (c) => {
      noStore(c);
      return store.answer(await store.byToken(c.input.params.token, c.user), c.user);
    },
  });

  r.add<{ token: string }>({
    method: 'GET',
    path: '/api/shared-plans/:token/ics',
    operationId: 'getSharedPlanIcs',
    summary: 'A shared plan as an iCalendar file',
    auth: 'optional',
    raw: true,
    rawContentType: 'text/calendar',
    schema: { params: tokenParams },
    handler: async (c) => {
      const p = await store.answer(await store.byToken(c.input.params.token, c.user), c.user);
      sendIcs(c, p, `${origin(c)}/plans/shared/${c.input.params.token}`);
    },
  });
}
