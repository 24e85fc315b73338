import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'admin',
  description: 'Admin dashboard: moderation, verification, suggestions, badges, notifications, monetization.',
  dependsOn: ['accounts', 'museums'],
  optionalDependsOn: ['insights', 'communities', 'groups', 'events', 'badges', 'notifications'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      updateMuseumsWaitMs: {
        type: 'integer',
        minimum: 0,
        maximum: 60000,
        default: 8000,
        description: 'How long POST /api/admin/update-museums waits for its background job before answering its progress (the dashboard then polls GET /api/admin/jobs/{id})',
      },
      updateMuseumsBatch: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'museums looked up in Wikidata per step of the Update Museums job (progress is reported after each step)' },
    },
    default: {},
  },
});
