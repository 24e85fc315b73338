import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'admin',
  description: 'Admin dashboard: moderation, verification, suggestions, badges, notifications, monetization.',
  dependsOn: ['accounts', 'museums'],
  optionalDependsOn: ['insights', 'communities', 'groups', 'events', 'badges'],
});
