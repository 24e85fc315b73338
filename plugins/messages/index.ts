import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'messages',
  description: 'Direct messages: conversations between two members and small groups, with message requests.',
  dependsOn: ['accounts'],
  optionalDependsOn: ['notifications'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxGroupSize: { type: 'integer', minimum: 2, maximum: 50, default: 10, description: 'members of a group conversation, its creator included' },
    },
  },
});
