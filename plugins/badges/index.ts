import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'badges',
  description: 'Badges earned from activity (check-ins, insights, likes received, museum follows, community memberships, meetups attended).',
  dependsOn: ['accounts'],
  optionalDependsOn: ['insights', 'museums', 'communities', 'events', 'notifications'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      retroBatchSize: { type: 'integer', minimum: 1, maximum: 10000, default: 500, description: 'members per batch when a new or eased badge is awarded retroactively' },
    },
  },
});
