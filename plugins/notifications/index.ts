import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'notifications',
  description: 'A notification inbox per member: what happened, as they chose to hear it.',
  dependsOn: ['accounts'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      batchSize: { type: 'integer', minimum: 1, maximum: 50000, default: 1000, description: 'members per INSERT … SELECT batch of a send to everyone' },
      syncLimit: { type: 'integer', minimum: 0, maximum: 100000, default: 1000, description: 'sends to at most this many members are written during the request; larger ones by a background job' },
      retention: {
        type: 'object',
        additionalProperties: false,
        default: {},
        description: 'How long notifications are kept (PRIVACY.md); the hourly notifications.retention job purges them',
        properties: {
          readNotificationsDays: { type: 'integer', minimum: 1, maximum: 3650, default: 180, description: 'days a read notification is kept after it was read; unread ones stay until read' },
        },
      },
      allowInsecurePushEndpoints: { type: 'boolean', default: false, description: 'accept http:// push endpoints (tests with a local push service); real push services are https' },
    },
  },
});
