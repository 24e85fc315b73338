import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'plans',
  description: 'Plan a visit: a member\'s day plans across museums (and events or meetups), checked against hours, closures, holidays and free entry, with walking times, a suggested order, sharing and ICS export.',
  dependsOn: ['accounts', 'museums'],
  optionalDependsOn: ['events'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxPlans: { type: 'integer', minimum: 1, maximum: 200, default: 20, description: 'plans per member' },
      maxStops: { type: 'integer', minimum: 2, maximum: 30, default: 12, description: 'stops per plan' },
      minVisitMinutes: { type: 'integer', minimum: 5, maximum: 240, default: 30, description: 'an open time inside a visit shorter than this is "too short"' },
    },
  },
});
