import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'reports',
  description: 'Reports on content and members: a platform-wide queue the Admins work from the dashboard.',
  dependsOn: ['accounts'],
  /** admin: the queue's actions reuse its moderation and audit log (without it, they answer 404) */
  optionalDependsOn: ['admin', 'notifications'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      perWindow: { type: 'integer', minimum: 1, maximum: 10000, default: 20, description: 'reports a member may file per window' },
      windowSeconds: { type: 'integer', minimum: 1, maximum: 604800, default: 3600, description: 'length of the report throttle window' },
    },
    default: {},
  },
});
